// The export dialog: nothing unencrypted is saved before the warning is acknowledged and the account
// password typed again (a wrong one is said so); the encrypted export asks its password twice and saves
// an envelope that opens to the codes; Google Authenticator's export shows its QR codes and what it leaves out.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { cryptoWorker } from '@ente/crypto/client.ts';
import { i18n, loadNamespace } from '@ente/shared/i18n/i18n.ts';

import { fakeCode } from '../list/testing/fake-vault.ts';
import { ExportDialog } from './ExportDialog.tsx';

const accountPassword = 'the account password';
jest.mock('@ente/accounts/services/account-recovery-key.ts', () => ({
  masterKeyWithPassword: jest.fn((password: string) =>
    password === 'the account password'
      ? Promise.resolve('master key')
      : Promise.reject(Object.assign(new Error('incorrect password'), { errorKey: 'incorrectPassword' })),
  ),
}));

const saved: { name: string; blob: Blob }[] = [];
beforeAll(async () => {
  await loadNamespace('export');
  URL.createObjectURL = jest.fn((blob: Blob) => {
    saved.push({ name: '', blob });
    return 'blob:export';
  });
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const last = saved.at(-1);
    if (last) last.name = this.download;
  });
});
beforeEach(() => {
  saved.length = 0;
});

const codes = [
  fakeCode({ issuer: 'Mail', account: 'ada', secret: 'JBSWY3DPEHPK3PXP', display: { tags: ['work'] } }),
  fakeCode({ issuer: 'Steam', account: 'gamer', secret: 'MFRGGZDFMZTWQ2LK', type: 'steam', digits: 5 }),
  fakeCode({ issuer: 'Old', account: 'bin', secret: 'ONSWG4TFOQ', display: { trashed: true } }),
];

async function openDialog() {
  render(
    <I18nextProvider i18n={i18n}>
      <ExportDialog open onClose={jest.fn()} codes={codes} />
    </I18nextProvider>,
  );
  return screen.findByRole('dialog', { name: 'Export codes' });
}

async function typeAccountPassword(dialog: HTMLElement, password: string) {
  fireEvent.change(await within(dialog).findByLabelText('Account password'), { target: { value: password } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
}

test('plain text: only after the warning and the account password, with the trash, named as Ente names it', async () => {
  const dialog = await openDialog();
  expect(dialog).toHaveTextContent('Codes: 3 (in the trash: 1)');
  fireEvent.click(within(dialog).getByRole('radio', { name: /Ente Auth, plain text/ }));
  const next = within(dialog).getByRole('button', { name: 'Continue' });
  expect(next).toBeDisabled();
  fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I understand' }));
  fireEvent.click(next);

  await typeAccountPassword(dialog, 'not it');
  expect(await within(dialog).findByText('That is not your account password.')).toBeVisible();
  expect(saved).toEqual([]);

  await typeAccountPassword(dialog, accountPassword);
  expect(await within(dialog).findByText(/^Saved as ente-auth-codes-plaintext-\d{8}-\d{6}\.txt$/)).toBeVisible();
  expect(saved).toHaveLength(1);
  const text = await saved[0]!.blob.text();
  expect(
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => /^otpauth:\/\/[a-z]+\/([^:]+)/.exec(line)?.[1]),
  ).toEqual(['Mail', 'Steam', 'Old']);
  expect(saved[0]!.name).toMatch(/^ente-auth-codes-plaintext-/);
});

test('encrypted: the export password twice, at least 8 characters; the file opens to the codes', async () => {
  const crypto = await cryptoWorker();
  jest
    .spyOn(crypto, 'encryptEnteExport')
    .mockImplementation((password, text) =>
      cryptoAPI.encryptEnteExport(password, text, { opsLimit: 1, memLimit: 8192 }),
    );
  const dialog = await openDialog();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
  await typeAccountPassword(dialog, accountPassword);

  const first = await within(dialog).findByLabelText('Password for the file');
  fireEvent.change(first, { target: { value: 'short' } });
  fireEvent.change(within(dialog).getByLabelText('Password again'), { target: { value: 'short' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }));
  expect(await within(dialog).findByText('Use at least 8 characters.')).toBeVisible();
  fireEvent.change(within(dialog).getByLabelText('Password for the file'), { target: { value: 'long enough' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }));
  expect(await within(dialog).findByText('The two passwords are not the same.')).toBeVisible();
  fireEvent.change(within(dialog).getByLabelText('Password again'), { target: { value: 'long enough' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }));
  expect(await within(dialog).findByText(/^Saved as ente-auth-codes-\d{8}-\d{6}\.txt$/)).toBeVisible();

  const envelope = JSON.parse(await saved[0]!.blob.text()) as Parameters<typeof cryptoAPI.decryptEnteExport>[1];
  const text = await cryptoAPI.decryptEnteExport('long enough', envelope);
  expect(text.split('\n').filter(Boolean)).toHaveLength(3);
  expect(text).toContain('secret=JBSWY3DPEHPK3PXP');
});

test('Google Authenticator: QR codes on screen, the codes it cannot hold named, the trash left out', async () => {
  const dialog = await openDialog();
  fireEvent.click(within(dialog).getByRole('radio', { name: /Google Authenticator/ }));
  fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I understand' }));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
  await typeAccountPassword(dialog, accountPassword);
  const image = await within(dialog).findByRole('img', { name: 'QR code 1 of 1' });
  expect(image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  expect(dialog).toHaveTextContent('so they are left out: Steam');
  expect(dialog).not.toHaveTextContent('Old');
  await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Next' })).toBeDisabled());
  expect(saved).toEqual([]);
});

test('printable sheet: a page with a QR code per code outside the trash, and no script', async () => {
  const dialog = await openDialog();
  fireEvent.click(within(dialog).getByRole('radio', { name: /Printable sheet/ }));
  fireEvent.click(within(dialog).getByRole('checkbox', { name: 'I understand' }));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
  await typeAccountPassword(dialog, accountPassword);
  expect(await within(dialog).findByText(/^Saved as ente-auth-codes-plainhtml-\d{8}-\d{6}\.html$/)).toBeVisible();
  const html = await saved[0]!.blob.text();
  expect(html.match(/<svg /g)).toHaveLength(2);
  expect(html).toContain('Mail');
  expect(html).not.toContain('Old');
  expect(html).not.toContain('<script');
});
