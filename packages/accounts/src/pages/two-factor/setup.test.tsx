import 'fake-indexeddb/auto';

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type * as QRCode from 'qrcode';
import type { QRCodeToStringOptions } from 'qrcode';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { fromB64 } from '@ente/crypto/encoding.ts';
import { setAppName } from '@ente/shared/app-name.ts';
import { savedKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { twoFactorURI } from '../../services/account-two-factor.ts';
import { saveTestAccount, testApiOrigin, testEmail, testToken } from '../../settings/testing/account-fixture.ts';
import TwoFactorSetupPage from './setup.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

// The QR library, observed: when it is loaded and what it is asked to draw.
const mockQr = { loads: 0, texts: [] as string[] };
jest.mock('qrcode', () => {
  mockQr.loads += 1;
  const actual = jest.requireActual<typeof QRCode>('qrcode');
  return {
    ...actual,
    toString: (text: string, options: QRCodeToStringOptions) => {
      mockQr.texts.push(text);
      return actual.toString(text, options);
    },
  };
});

/** The pending secret the server hands out (32 base32 characters, docs/protocol.md#two-factor). */
const secretCode = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

const server = setupServer();
let requests: { path: string; body: unknown; token: string | null }[] = [];

function route(method: 'post' | 'put', path: string, answer: () => Response) {
  return http[method](`${testApiOrigin}${path}`, async ({ request }) => {
    const text = await request.text();
    requests.push({ path, body: text ? JSON.parse(text) : undefined, token: request.headers.get('X-Auth-Token') });
    return answer();
  });
}

const setupAnswer = () => HttpResponse.json({ secretCode, qrCode: 'iVBORw0KGgo=' });
const empty = () => new HttpResponse(null, { status: 200 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  mockRouter = fakeRouter('/two-factor/setup');
  requests = [];
  mockQr.texts.length = 0;
  setAppName('auth');
});
afterEach(async () => {
  jest.restoreAllMocks();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
});
afterAll(() => server.close());

test('the QR library is not part of the page: it loads when there is a secret to draw', async () => {
  expect(mockQr.loads).toBe(0);
  await saveTestAccount();
  server.use(route('post', '/users/two-factor/setup', setupAnswer));
  renderInShell(<TwoFactorSetupPage />);
  const image = await screen.findByRole('img', { name: 'QR code that adds your account to an authenticator app' });
  expect(mockQr.loads).toBe(1);
  expect(mockQr.texts).toEqual([twoFactorURI(testEmail, secretCode)]);
  const src = image.getAttribute('src') ?? '';
  expect(src).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(atob(src.split(',')[1] ?? '')).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
});

test('the otpauth URI is the one the server builds (docs/protocol.md#two-factor)', () => {
  expect(twoFactorURI('ada+x@example.org', secretCode)).toBe(
    `otpauth://totp/ente:ada%2Bx%40example.org?algorithm=SHA1&digits=6&issuer=ente&period=30&secret=${secretCode}`,
  );
});

test('shows the secret to copy, and the code turns two-factor on with the secret under the recovery key', async () => {
  const account = await saveTestAccount();
  server.use(route('post', '/users/two-factor/setup', setupAnswer), route('post', '/users/two-factor/enable', empty));
  const user = userEvent.setup();
  renderInShell(<TwoFactorSetupPage />);
  expect(await screen.findByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
  const writeText = jest.spyOn(navigator.clipboard, 'writeText');
  await user.click(screen.getByRole('button', { name: 'Copy key' }));
  expect(writeText).toHaveBeenCalledWith(secretCode);
  expect(screen.getByText('Key copied.')).toBeInTheDocument();

  await user.type(screen.getByLabelText('6-digit code'), '287082');
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/auth'));
  expect(await screen.findByRole('dialog', { name: 'Two-factor authentication is on' })).toBeInTheDocument();

  expect(requests.map((r) => [r.path, r.token])).toEqual([
    ['/users/two-factor/setup', testToken],
    ['/users/two-factor/enable', testToken],
  ]);
  const enable = requests[1]?.body as Record<string, string>;
  expect(Object.keys(enable).sort()).toEqual(['code', 'encryptedTwoFactorSecret', 'twoFactorSecretDecryptionNonce']);
  expect(enable.code).toBe('287082');
  // The secret round trip: Box(base64-decode(secretCode)) under the RECOVERY key, 24 + 16 bytes; opening
  // it and base64-encoding gives the secret back.
  const { encryptedTwoFactorSecret, twoFactorSecretDecryptionNonce } = enable;
  if (!encryptedTwoFactorSecret || !twoFactorSecretDecryptionNonce || !account.recoveryKey) throw new Error('missing');
  expect(fromB64(encryptedTwoFactorSecret)).toHaveLength(40);
  expect(fromB64(twoFactorSecretDecryptionNonce)).toHaveLength(24);
  const opened = await cryptoAPI.decryptBox(
    encryptedTwoFactorSecret,
    twoFactorSecretDecryptionNonce,
    account.recoveryKey,
  );
  expect(opened).toBe(secretCode);
  expect(
    await cryptoAPI.decryptTwoFactorSecret(
      encryptedTwoFactorSecret,
      twoFactorSecretDecryptionNonce,
      account.recoveryKey,
    ),
  ).toBe(secretCode);
  await expect(
    cryptoAPI.decryptBox(encryptedTwoFactorSecret, twoFactorSecretDecryptionNonce, account.masterKey),
  ).rejects.toThrow();
  expect(savedUser()?.isTwoFactorEnabled).toBe(true);
});

test('a wrong code is said at the field, which is cleared for the next one', async () => {
  await saveTestAccount();
  server.use(
    route('post', '/users/two-factor/setup', setupAnswer),
    route('post', '/users/two-factor/enable', () => HttpResponse.json({}, { status: 401 })),
  );
  const user = userEvent.setup();
  renderInShell(<TwoFactorSetupPage />);
  const field = await screen.findByLabelText('6-digit code');
  await user.type(field, '000000');
  await waitFor(() => expect(field).toHaveAccessibleDescription('Incorrect code'));
  expect(field).toHaveValue('');
  expect(mockRouter.push).not.toHaveBeenCalled();
  expect(savedUser()?.isTwoFactorEnabled).toBeUndefined();
});

test('an account without a recovery key gets one registered first', async () => {
  const account = await saveTestAccount({ withRecoveryKey: false });
  server.use(
    route('post', '/users/two-factor/setup', setupAnswer),
    route('put', '/users/recovery-key', empty),
    route('post', '/users/two-factor/enable', empty),
  );
  const user = userEvent.setup();
  renderInShell(<TwoFactorSetupPage />);
  await user.type(await screen.findByLabelText('6-digit code'), '287082');
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/auth'));
  expect(requests.map((r) => r.path)).toEqual([
    '/users/two-factor/setup',
    '/users/recovery-key',
    '/users/two-factor/enable',
  ]);
  const registered = requests[1]?.body as Record<string, string>;
  const local = savedKeyAttributes();
  expect(local).toMatchObject(registered);
  if (!local) throw new Error('no key attributes');
  const recoveryKey = await cryptoAPI.recoveryKeyFromMasterKey(account.masterKey, local);
  const enable = requests[2]?.body as Record<string, string>;
  expect(
    await cryptoAPI.decryptTwoFactorSecret(
      enable.encryptedTwoFactorSecret ?? '',
      enable.twoFactorSecretDecryptionNonce ?? '',
      recoveryKey,
    ),
  ).toBe(secretCode);
});

test('a failed setup says why and can be tried again', async () => {
  await saveTestAccount();
  let answers = 0;
  server.use(
    route('post', '/users/two-factor/setup', () =>
      ++answers === 1 ? HttpResponse.json({}, { status: 500 }) : setupAnswer(),
    ),
  );
  const user = userEvent.setup();
  renderInShell(<TwoFactorSetupPage />);
  await waitFor(() =>
    expect(screen.getByRole('alert')).toHaveTextContent('The server ran into a problem. Please try again later.'),
  );
  await user.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByLabelText('6-digit code')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Turn on' })).toBeInTheDocument();
});

test('a tab that is not unlocked goes to /credentials first', async () => {
  await saveTestAccount({ unlocked: false });
  renderInShell(<TwoFactorSetupPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/credentials'));
  expect(requests).toEqual([]);
});
