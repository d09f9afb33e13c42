import 'fake-indexeddb/auto';

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { cryptoAPI } from '@ente/crypto/api.ts';
import type * as CryptoClient from '@ente/crypto/client.ts';
import { createSrpServerB64, verifySrpClientProofB64 } from '@ente/crypto/srp.ts';
import { setAppName } from '@ente/shared/app-name.ts';
import { savedKeyAttributes, savedSrpAttributes } from '@ente/shared/storage/account-storage.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { resetFlowState, takeRedirect } from '../services/flow-state.ts';
import type * as AccountFixture from '../settings/testing/account-fixture.ts';
import { saveTestAccount, sensitiveVector, testApiOrigin } from '../settings/testing/account-fixture.ts';
import ChangePasswordPage from './change-password.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

// The sensitive derivation (256 MiB × 16) takes seconds; these tests use its real output for the
// vector password, and count the runs.
const mockSensitiveRuns: string[] = [];
jest.mock('@ente/crypto/client.ts', () => {
  const actual = jest.requireActual<typeof CryptoClient>('@ente/crypto/client.ts');
  const { sensitiveVector: vector } = jest.requireActual<typeof AccountFixture>(
    '../settings/testing/account-fixture.ts',
  );
  return {
    ...actual,
    cryptoWorker: async () => {
      const remote = await actual.cryptoWorker();
      return {
        ...remote,
        deriveSensitiveKEK: (password: string) => {
          mockSensitiveRuns.push(password);
          if (password !== vector.password) throw new Error('only the vector password is derived here');
          return Promise.resolve({
            key: vector.key,
            salt: vector.salt,
            opsLimit: vector.opsLimit,
            memLimit: vector.memLimit,
          });
        },
      };
    },
  };
});

const server = setupServer();
let requests: { path: string; body: unknown }[] = [];
const newSrpAttributes = {
  srpUserID: '11111111-1111-4111-8111-111111111111',
  srpSalt: 'AAAAAAAAAAAAAAAAAAAAAA==',
  memLimit: sensitiveVector.memLimit,
  opsLimit: sensitiveVector.opsLimit,
  kekSalt: sensitiveVector.salt,
  isEmailMFAEnabled: false,
};

/** An SRP server that takes the new verifier at setup and checks M1 at update, as the real one does. */
function srpServer({ tamperM2 = false } = {}) {
  let pending: { verifier: string; serverSecret: string; srpA: string } | undefined;
  return [
    http.post(`${testApiOrigin}/users/srp/setup`, async ({ request }) => {
      const body = (await request.json()) as { srpVerifier: string; srpA: string };
      requests.push({ path: '/users/srp/setup', body });
      const { serverSecret, srpB } = await createSrpServerB64(body.srpVerifier);
      pending = { verifier: body.srpVerifier, serverSecret, srpA: body.srpA };
      return HttpResponse.json({ setupID: '22222222-2222-4222-8222-222222222222', srpB });
    }),
    http.post(`${testApiOrigin}/users/srp/update`, async ({ request }) => {
      const body = (await request.json()) as { srpM1: string };
      requests.push({ path: '/users/srp/update', body });
      if (!pending) return HttpResponse.json({}, { status: 404 });
      const srpM2 = verifySrpClientProofB64({ ...pending, srpM1: body.srpM1 });
      if (!srpM2) return HttpResponse.json({}, { status: 401 });
      // An impostor's M2: one character off.
      const answered = tamperM2 ? `${srpM2.startsWith('A') ? 'B' : 'A'}${srpM2.slice(1)}` : srpM2;
      return HttpResponse.json({ setupID: '22222222-2222-4222-8222-222222222222', srpM2: answered });
    }),
    http.get(`${testApiOrigin}/users/srp/attributes`, ({ request }) => {
      requests.push({ path: `/users/srp/attributes${new URL(request.url).search}`, body: undefined });
      return HttpResponse.json({ attributes: newSrpAttributes });
    }),
  ];
}

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  setAppName('photos');
});
beforeEach(() => {
  mockRouter = fakeRouter('/change-password');
  requests = [];
  mockSensitiveRuns.length = 0;
});
afterEach(async () => {
  server.resetHandlers();
  resetFlowState();
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
});
afterAll(() => server.close());

async function fillIn(password: string, confirmation = password) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  return user;
}

test('re-wraps the masterKey under the new password, registers a new verifier and goes home', async () => {
  const account = await saveTestAccount();
  server.use(...srpServer());
  renderInShell(<ChangePasswordPage />);
  expect(await screen.findByRole('heading', { level: 1, name: 'Change password' })).toBeInTheDocument();
  await fillIn(sensitiveVector.password);
  // One interactive derivation and the 4096-bit SRP arithmetic take a few seconds here.
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/gallery'), { timeout: 20000 });

  expect(mockSensitiveRuns).toEqual([sensitiveVector.password]);
  expect(requests.map((r) => r.path)).toEqual([
    '/users/srp/setup',
    '/users/srp/update',
    `/users/srp/attributes?email=${encodeURIComponent(account.email)}`,
  ]);
  const update = requests[1]?.body as Record<string, unknown> & { updatedKeyAttr: Record<string, string | number> };
  // No logOutOtherDevices: the server signs the other devices out (docs/protocol.md#change-password).
  expect(Object.keys(update).sort()).toEqual(['setupID', 'srpM1', 'updatedKeyAttr']);
  const { updatedKeyAttr } = update;
  expect(Object.keys(updatedKeyAttr).sort()).toEqual([
    'encryptedKey',
    'kekSalt',
    'keyDecryptionNonce',
    'memLimit',
    'opsLimit',
  ]);
  expect(updatedKeyAttr).toMatchObject({
    kekSalt: sensitiveVector.salt,
    opsLimit: sensitiveVector.opsLimit,
    memLimit: sensitiveVector.memLimit,
  });
  // The new KEK opens the same masterKey.
  const fromServer = updatedKeyAttr as { encryptedKey: string; keyDecryptionNonce: string };
  expect(await cryptoAPI.decryptMasterKey(sensitiveVector.key, fromServer)).toBe(account.masterKey);

  // Locally: new interactive attributes for the new password, the rest kept; the new SRP attributes.
  const local = savedKeyAttributes();
  expect(local).toMatchObject({ opsLimit: 2, memLimit: 67108864, publicKey: account.keyAttributes.publicKey });
  expect(local?.kekSalt).not.toBe(account.keyAttributes.kekSalt);
  if (!local) throw new Error('no local key attributes');
  const kek = await cryptoAPI.deriveKEK(sensitiveVector.password, local);
  expect(await cryptoAPI.decryptMasterKey(kek, local)).toBe(account.masterKey);
  expect(savedSrpAttributes()).toEqual(newSrpAttributes);
});

test.each([
  ['short', 'short', 'Use at least 8 characters.'],
  ['long enough', 'different', 'The passwords do not match.'],
])('refuses %s / %s without a request: %s', async (password, confirmation, message) => {
  await saveTestAccount();
  renderInShell(<ChangePasswordPage />);
  await fillIn(password, confirmation);
  expect(await screen.findByText(message)).toBeInTheDocument();
  expect(requests).toEqual([]);
  expect(mockSensitiveRuns).toEqual([]);
});

test('a server whose M2 does not check out is not trusted, and nothing local changes', async () => {
  const account = await saveTestAccount();
  server.use(...srpServer({ tamperM2: true }));
  renderInShell(<ChangePasswordPage />);
  await fillIn(sensitiveVector.password);
  expect(
    await screen.findByText('The server could not prove that it is genuine. Please try again later.', undefined, {
      timeout: 20000,
    }),
  ).toBeInTheDocument();
  expect(savedKeyAttributes()).toEqual(account.keyAttributes);
  expect(mockRouter.push).not.toHaveBeenCalled();
  expect(screen.getByRole('button', { name: 'Change password' })).toBeEnabled();
});

test.each([
  [
    HttpResponse.json({ error: 'Rate limit breached, try later' }, { status: 429 }),
    'Too many attempts. Please try again later.',
  ],
  [HttpResponse.error(), 'Could not reach the server. Please check your connection.'],
  [HttpResponse.json({}, { status: 502 }), 'The server ran into a problem. Please try again later.'],
])('says what failed at setup (%#)', async (answer, message) => {
  await saveTestAccount();
  server.use(http.post(`${testApiOrigin}/users/srp/setup`, () => answer));
  renderInShell(<ChangePasswordPage />);
  await fillIn(sensitiveVector.password);
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
});

test('`?op=reset` is the last step of a forgotten password', async () => {
  await saveTestAccount();
  mockRouter = { ...fakeRouter('/change-password?op=reset'), query: { op: 'reset' } };
  renderInShell(<ChangePasswordPage />);
  expect(await screen.findByRole('heading', { level: 1, name: 'Set a new password' })).toBeInTheDocument();
});

test('a tab that is not unlocked goes to /credentials and is brought back afterwards', async () => {
  await saveTestAccount({ unlocked: false });
  renderInShell(<ChangePasswordPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/credentials'));
  expect(takeRedirect()).toBe('/change-password');
  expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
});

test('a signed-out visitor goes to /login', async () => {
  renderInShell(<ChangePasswordPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
});
