// The import dialog with the real readers (in-process here) and a vault in memory: the preview sorts a
// pasted export into codes to add, duplicates and entries that cannot be imported; an encrypted export asks
// for its password and keeps the file after a wrong one; an upload that fails part-way says what was saved.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { i18n, loadNamespace } from '@ente/shared/i18n/i18n.ts';

import { VaultError } from '../../vault/vault.ts';
import { fakeCode, fakeVault, rfcSecret } from '../list/testing/fake-vault.ts';
import { ImportDialog } from './ImportDialog.tsx';

beforeAll(async () => {
  await Promise.all([loadNamespace('import'), loadNamespace('codes')]);
});

const existing = fakeCode({ issuer: 'Already', account: 'me', secret: rfcSecret });
const exportText = [
  'otpauth://totp/Fresh:ada?secret=JBSWY3DPEHPK3PXP&issuer=Fresh&codeDisplay=%7B%22tags%22%3A%5B%22work%22%5D%7D',
  `otpauth://totp/Again:ada?secret=${rfcSecret}&issuer=Again`,
  'motp://Old:ada?secret=abcdef',
].join('\n');

function renderDialog(vault = fakeVault([{ kind: 'code', code: existing }])) {
  const onClose = jest.fn();
  render(
    <I18nextProvider i18n={i18n}>
      <ImportDialog open onClose={onClose} vault={vault} codes={[existing]} />
    </I18nextProvider>,
  );
  return { vault, onClose };
}

async function paste(text: string) {
  const dialog = await screen.findByRole('dialog', { name: 'Import codes' });
  fireEvent.change(within(dialog).getByRole('textbox', { name: 'Or paste the text of an export' }), {
    target: { value: text },
  });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Read the text' }));
  return dialog;
}

test('previews what is added, what is already here and what cannot be imported, then imports the chosen codes', async () => {
  const { vault } = renderDialog();
  const dialog = await paste(exportText);
  expect(await within(dialog).findByText('To add: 1')).toBeVisible();
  expect(dialog).toHaveTextContent('Exported by: Ente Auth');
  expect(dialog).toHaveTextContent('Already here: 1');
  expect(dialog).toHaveTextContent('Cannot be imported: 1');
  expect(dialog).toHaveTextContent('this kind of code (motp) is not supported');
  const duplicate = within(dialog).getByRole('checkbox', { name: /Again — ada \(same secret as Already — me\)/ });
  expect(duplicate).not.toBeChecked();

  fireEvent.click(within(dialog).getByRole('button', { name: 'Import 1 codes' }));
  expect(await within(dialog).findByText('Codes added: 1')).toBeVisible();
  expect(vault.addMany).toHaveBeenCalledTimes(1);
  const [written] = vault.addMany.mock.calls[0]!;
  expect(written.map((data) => [data.issuer, data.display.tags])).toEqual([['Fresh', ['work']]]);
});

test('a chosen duplicate is imported too', async () => {
  const { vault } = renderDialog();
  const dialog = await paste(exportText);
  fireEvent.click(await within(dialog).findByRole('checkbox', { name: /Again/ }));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Import 2 codes' }));
  await within(dialog).findByText('Codes added: 2');
  expect(vault.addMany.mock.calls[0]![0].map((data) => data.issuer)).toEqual(['Fresh', 'Again']);
});

test('an encrypted export asks for its password, says when it is wrong, and opens with the right one', async () => {
  const envelope = await cryptoAPI.encryptEnteExport('right password', exportText, { opsLimit: 1, memLimit: 8192 });
  renderDialog();
  const dialog = await paste(JSON.stringify(envelope));
  const field = await within(dialog).findByLabelText('Password of the file');
  fireEvent.change(field, { target: { value: 'wrong password' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Open' }));
  expect(
    await within(dialog).findByText('This password does not open the file. Check it and try again.'),
  ).toBeVisible();
  fireEvent.change(within(dialog).getByLabelText('Password of the file'), { target: { value: 'right password' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Open' }));
  expect(await within(dialog).findByText('To add: 1')).toBeVisible();
});

test('text that is no export says so, with the reason', async () => {
  renderDialog();
  const dialog = await paste('{"hello": "world"}');
  const alert = await within(dialog).findByRole('alert');
  expect(alert).toHaveTextContent('This file is not an export that can be read here.');
  expect(alert).toHaveTextContent('this is not an export of any app we can read');
});

test('an upload that fails part-way says how many were saved and that importing again adds the rest', async () => {
  const vault = fakeVault([]);
  vault.addMany.mockImplementation((datas, options) => {
    options?.onProgress?.(1, datas.length);
    return Promise.reject(new VaultError('vault.offline'));
  });
  renderDialog(vault);
  const dialog = await paste(
    'otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP&issuer=A\notpauth://totp/B:b?secret=MFRGGZDFMZTWQ2LK&issuer=B',
  );
  fireEvent.click(await within(dialog).findByRole('button', { name: 'Import 2 codes' }));
  await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Codes added: 1; not added: 1.'));
  expect(within(dialog).getByRole('alert')).toHaveTextContent('import the same file again to add only the rest');
});
