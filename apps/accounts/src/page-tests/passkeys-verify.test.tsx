// The tests of the app's page modules live here, not beside them: Next treats every file under src/pages as a page.
// /passkeys/verify with the server's routes served by msw and the browser's WebAuthn call stubbed
// (@simplewebauthn/browser): a link to an address that is not the family's runs nothing; a check goes
// begin → sign → finish (with the requesting app's package) → back to `redirect` with the answer; each
// failure says what it is (a passkey that looks cloned included), the ones another attempt can fix offer
// "Try again" and the recovery page, and a prompt that needs the page's focus is signed again on a press,
// without a new begin.
import 'fake-indexeddb/auto';

import { startAuthentication } from '@simplewebauthn/browser';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { setAppName } from '@ente/shared/app-name.ts';
import { leaveFor } from '@ente/shared/app/navigation.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import PasskeyVerifyPage from '../pages/passkeys/verify.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
jest.mock('@simplewebauthn/browser', () => ({ startAuthentication: jest.fn() }));
jest.mock('@ente/shared/app/navigation.ts', () => ({ leaveFor: jest.fn(), reloadAt: jest.fn() }));

const api = 'https://api.ente.com';
const passkeySessionID = 'c2Vzc2lvbiBvZiB0aGlydHktdHdvIGJ5dGVzIC4uLi4uLi4=';
const ceremonySessionID = '9a3f6c1e-2b4d-4e8f-a1c3-5d7e9f0b2c4d';
const requestOptions = {
  challenge: 'Y2hhbGxlbmdlIG9mIHRoaXJ0eS10d28gYnl0ZXMgLi4uLg',
  timeout: 120000,
  rpId: 'localhost',
  allowCredentials: [{ type: 'public-key' as const, id: 'Y3JlZGVudGlhbA', transports: ['internal' as const] }],
  userVerification: 'preferred' as const,
};
const answer = {
  id: 7,
  keyAttributes: {
    kekSalt: 'a2VrIHNhbHQgb2Ygc2l4dGVlbg==',
    encryptedKey: 'ZW5jcnlwdGVkIGtleQ==',
    keyDecryptionNonce: 'bm9uY2U=',
    publicKey: 'cHVibGljIGtleQ==',
    encryptedSecretKey: 'c2VjcmV0IGtleQ==',
    secretKeyDecryptionNonce: 'bm9uY2U=',
    memLimit: 1073741824,
    opsLimit: 4,
  },
  encryptedToken: 'c2VhbGVkIHRva2Vu',
};
const assertion = {
  id: 'Y3JlZGVudGlhbA',
  rawId: 'Y3JlZGVudGlhbA',
  type: 'public-key' as const,
  response: { authenticatorData: 'YXV0aERhdGE', clientDataJSON: 'Y2xpZW50RGF0YQ', signature: 'c2lnbmF0dXJl' },
  clientExtensionResults: {},
};

let requests: { path: string; query: Record<string, string>; body: unknown; clientPackage: string | null }[];
const server = setupServer();

function route(path: string, respond: () => Response) {
  return http.post(`${api}${path}`, async ({ request }) => {
    const url = new URL(request.url);
    requests.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: await request.json(),
      clientPackage: request.headers.get('X-Client-Package'),
    });
    return respond();
  });
}

const begin = (respond = () => HttpResponse.json({ options: { publicKey: requestOptions }, ceremonySessionID })) =>
  route('/users/two-factor/passkeys/begin', respond);
const finish = (respond = () => HttpResponse.json(answer)) => route('/users/two-factor/passkeys/finish', respond);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  setAppName('accounts');
  requests = [];
  server.resetHandlers(begin(), finish());
  Object.assign(window, { PublicKeyCredential: function PublicKeyCredential() {} });
  jest.mocked(startAuthentication).mockResolvedValue(assertion);
});
afterEach(() => {
  jest.clearAllMocks();
});
afterAll(() => server.close());

function arrive(query: Record<string, string | undefined> = {}) {
  mockRouter = fakeRouter('/passkeys/verify');
  const full: Record<string, string | undefined> = {
    clientPackage: 'io.ente.photos.web',
    passkeySessionID,
    redirect: 'http://localhost/passkeys/finish?from=photos',
    recover: 'http://localhost/passkeys/recover',
    ...query,
  };
  mockRouter.query = Object.fromEntries(
    Object.entries(full).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  renderInShell(<PasskeyVerifyPage />);
}

test('begin, sign, finish for the requesting app, then back to its page with the answer', async () => {
  arrive();
  await waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(1));
  expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: requestOptions });
  expect(requests).toEqual([
    {
      path: '/users/two-factor/passkeys/begin',
      query: {},
      body: { sessionID: passkeySessionID },
      clientPackage: 'io.ente.accounts.web',
    },
    {
      path: '/users/two-factor/passkeys/finish',
      query: { sessionID: passkeySessionID, ceremonySessionID, clientPackage: 'io.ente.photos.web' },
      body: { ...assertion, clientExtensionResults: undefined, response: { ...assertion.response, userHandle: null } },
      // The token is minted for the app that asked, not for the accounts app.
      clientPackage: 'io.ente.photos.web',
    },
  ]);
  const back = new URL(jest.mocked(leaveFor).mock.calls[0]?.[0] ?? '');
  expect(`${back.origin}${back.pathname}`).toBe('http://localhost/passkeys/finish');
  expect(back.searchParams.get('from')).toBe('photos');
  expect(back.searchParams.get('passkeySessionID')).toBe(passkeySessionID);
  expect(JSON.parse(Buffer.from(back.searchParams.get('response') ?? '', 'base64url').toString('utf8'))).toEqual(
    answer,
  );
  // The page sets its status and leaves in one step; React shows the status at its next render.
  await waitFor(() =>
    expect(screen.getByRole('status')).toHaveTextContent('Passkey verified. Taking you back to the app…'),
  );
});

test.each([
  ['another site', { redirect: 'https://evil.example/passkeys/finish' }],
  ['no address', { redirect: undefined }],
  ['no app', { clientPackage: undefined }],
  ['no sign-in', { passkeySessionID: undefined }],
])('a link with %s runs nothing', async (_, query) => {
  arrive(query);
  expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in link is invalid.');
  expect(requests).toEqual([]);
  expect(leaveFor).not.toHaveBeenCalled();
});

test('a browser without WebAuthn is told so', async () => {
  Object.assign(window, { PublicKeyCredential: undefined });
  arrive();
  expect(await screen.findByRole('alert')).toHaveTextContent('Passkeys are not supported in this browser.');
  expect(requests).toEqual([]);
});

test('a sign-in verified already, or over: said, nothing to retry', async () => {
  server.use(
    begin(() =>
      HttpResponse.json({ code: 'SESSION_ALREADY_CLAIMED', message: 'Session is already claimed' }, { status: 409 }),
    ),
  );
  arrive();
  expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in has already been verified.');
  expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
});

test('a failed check offers another try (from begin) and the recovery page', async () => {
  jest
    .mocked(startAuthentication)
    .mockRejectedValueOnce(Object.assign(new Error('The operation was not allowed.'), { name: 'NotAllowedError' }));
  arrive();
  expect(await screen.findByRole('alert')).toHaveTextContent('The passkey check did not succeed.');
  expect(screen.getByRole('alert')).toHaveTextContent('If your passkey is on another device');
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Sign in with the recovery key' }));
  expect(leaveFor).toHaveBeenCalledWith('http://localhost/passkeys/recover');

  jest.mocked(leaveFor).mockClear();
  await user.click(screen.getByRole('button', { name: 'Try again' }));
  await waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(1));
  expect(requests.map((r) => r.path)).toEqual([
    '/users/two-factor/passkeys/begin',
    '/users/two-factor/passkeys/begin',
    '/users/two-factor/passkeys/finish',
  ]);
});

test('a refused signature is a failed check; a recovery page on another site is not offered', async () => {
  server.use(finish(() => HttpResponse.json({ code: 'BAD_REQUEST', message: 'Invalid signature' }, { status: 401 })));
  arrive({ recover: 'https://evil.example/recover' });
  expect(await screen.findByRole('alert')).toHaveTextContent('The passkey check did not succeed.');
  expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Sign in with the recovery key' })).not.toBeInTheDocument();
  expect(requests.map((r) => r.path)).toEqual([
    '/users/two-factor/passkeys/begin',
    '/users/two-factor/passkeys/finish',
  ]);
  expect(leaveFor).not.toHaveBeenCalled();
});

test('a passkey whose sign count did not grow is said to look copied or restored; another may be tried', async () => {
  server.use(
    finish(() =>
      HttpResponse.json(
        {
          code: 'PASSKEY_SIGN_COUNT_NOT_INCREASED',
          message: 'the sign count did not increase: the authenticator may be a copy or restored from a backup',
        },
        { status: 401 },
      ),
    ),
  );
  arrive();
  const alert = await screen.findByRole('alert');
  expect(alert).toHaveTextContent('This passkey looks copied or restored from a backup');
  expect(alert).toHaveTextContent('Use another passkey, or sign in with the recovery key.');
  expect(alert).not.toHaveTextContent('The passkey check did not succeed.');
  expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Sign in with the recovery key' })).toBeInTheDocument();
  expect(leaveFor).not.toHaveBeenCalled();
});

test('a prompt that needs the page focused: Verify signs the same challenge again', async () => {
  jest
    .mocked(startAuthentication)
    .mockRejectedValueOnce(Object.assign(new Error('The document is not focused.'), { name: 'NotAllowedError' }));
  arrive();
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Verify' }));
  await waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(1));
  expect(startAuthentication).toHaveBeenCalledTimes(2);
  expect(requests.map((r) => r.path)).toEqual([
    '/users/two-factor/passkeys/begin',
    '/users/two-factor/passkeys/finish',
  ]);
});
