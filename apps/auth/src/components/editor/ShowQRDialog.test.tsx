// "Show QR": nothing secret is drawn until the user presses "Show", after a warning; the picture holds
// the code's plain otpauth URI; "Hide" and closing take it away again.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import QRCode from 'qrcode';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { plainCodeURI } from '../../services/code-edits.ts';
import { ShowQRDialog } from './ShowQRDialog.tsx';
import { codeOf } from './testing/fixtures.ts';

jest.mock('qrcode', () => {
  const actual = jest.requireActual<typeof QRCode>('qrcode');
  const mocked = { ...actual, toString: jest.fn(actual.toString) };
  return { __esModule: true, ...mocked, default: mocked };
});

beforeAll(async () => {
  await loadNamespace('codes');
});

const code = codeOf({ issuer: 'GitHub', account: 'alice', display: { note: 'private note', tags: ['Work'] } });

test('draws the QR code only after "Show", and it holds the plain URI', async () => {
  const user = userEvent.setup();
  const onClose = jest.fn();
  renderInShell(<ShowQRDialog code={code} onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: 'QR code for GitHub (alice)' });
  expect(dialog).toHaveAccessibleDescription(/Anyone who sees this QR code can generate the codes/);
  expect(within(dialog).queryByRole('img')).not.toBeInTheDocument();
  expect(jest.mocked(QRCode.toString)).not.toHaveBeenCalled();

  await user.click(within(dialog).getByRole('button', { name: 'Show the QR code' }));
  const image = await within(dialog).findByRole('img', { name: 'QR code of GitHub (alice)' });
  expect(image).toHaveFocus();
  expect(jest.mocked(QRCode.toString)).toHaveBeenCalledTimes(1);
  const [text] = jest.mocked(QRCode.toString).mock.calls[0]!;
  expect(text).toBe(plainCodeURI(code));
  expect(text).not.toContain('codeDisplay');
  const source = image.getAttribute('src') ?? '';
  expect(source.startsWith('data:image/svg+xml')).toBe(true);
  expect(decodeURIComponent(source)).toContain('<svg');

  await user.click(within(dialog).getByRole('button', { name: 'Hide the QR code' }));
  expect(within(dialog).queryByRole('img')).not.toBeInTheDocument();
  expect(within(dialog).getByRole('button', { name: 'Show the QR code' })).toHaveFocus();

  await user.click(within(dialog).getByRole('button', { name: 'Close' }));
  expect(onClose).toHaveBeenCalled();
});

test('opening it for another code starts hidden again', async () => {
  const user = userEvent.setup();
  const view = renderInShell(<ShowQRDialog code={code} onClose={() => undefined} />);
  await user.click(screen.getByRole('button', { name: 'Show the QR code' }));
  expect(await screen.findByRole('img')).toBeInTheDocument();
  const other = codeOf({ issuer: 'Bank', account: 'bob' });
  view.rerender(<ShowQRDialog code={other} onClose={() => undefined} />);
  await waitFor(() => expect(screen.getByRole('dialog', { name: 'QR code for Bank (bob)' })).toBeVisible());
  expect(screen.queryByRole('img')).not.toBeInTheDocument();
});
