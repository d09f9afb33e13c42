// The tests of the app's page modules live here, not beside them: Next treats every file under src/pages as a page.
// /passkeys with the server's routes served by msw and the browser's WebAuthn calls stubbed
// (@simplewebauthn/browser): the management token taken out of the address (fragment or query) and kept
// in memory only, the list (name, added, last used), adding (name checked first, the protocol's payload
// sent, a cancelled prompt said nothing about, the limit said), renaming, deleting after confirmation, and
// a token that is over.
import 'fake-indexeddb/auto';

import { startRegistration } from '@simplewebauthn/browser';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { setAppName } from '@ente/shared/app-name.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import PasskeysPage from '../pages/passkeys/index.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
jest.mock('@simplewebauthn/browser', () => ({ startRegistration: jest.fn() }));

const api = 'https://api.ente.com';
const token = 'acc1.7.1795562097205000.Tg95LCF_4ZqPNSkbRNf5wr_qnwMZtoKKAZGg--k4y6g';
const µs = (iso: string) => Date.parse(iso) * 1000;

interface Listed {
  id: string;
  friendlyName: string;
  createdAt: number;
  lastUsedAt?: number;
}

/** The account's passkeys on the fake server, and every request it got. */
let passkeys: Listed[];
let requests: { method: string; path: string; query: Record<string, string>; body: unknown; token: string | null }[];
const server = setupServer();

function route(method: 'get' | 'post' | 'patch' | 'delete', path: string, answer: (request: Request) => Response) {
  return http[method](`${api}${path}`, async ({ request }) => {
    const url = new URL(request.url);
    const text = await request.text();
    requests.push({
      method: method.toUpperCase(),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: text ? JSON.parse(text) : undefined,
      token: request.headers.get('X-Auth-Token'),
    });
    return answer(request);
  });
}

const creationOptions = {
  rp: { name: 'Ente', id: 'localhost' },
  user: { id: 'AAAAAAAAAAc', name: 'ada@example.org', displayName: 'ada@example.org' },
  challenge: 'Y2hhbGxlbmdlIG9mIHRoaXJ0eS10d28gYnl0ZXMgLi4uLg',
  pubKeyCredParams: [{ type: 'public-key' as const, alg: -7 }],
  timeout: 300000,
};

function serverRoutes() {
  const idOf = (request: Request) => new URL(request.url).pathname.split('/').pop() ?? '';
  return [
    route('get', '/passkeys', () =>
      HttpResponse.json({
        accountsUrl: 'http://localhost',
        passkeys: passkeys.length ? passkeys.map((p) => ({ ...p, userID: 7 })) : null,
      }),
    ),
    route('post', '/passkeys/registration/begin', () =>
      HttpResponse.json({
        options: { publicKey: creationOptions },
        sessionID: '0b5e3c8e-3f0a-4c51-9d43-7c1e2a9e0f11',
      }),
    ),
    route('post', '/passkeys/registration/finish', (request) => {
      const name = new URL(request.url).searchParams.get('friendlyName') ?? '';
      passkeys.push({ id: crypto.randomUUID(), friendlyName: name, createdAt: µs('2026-11-24T10:00:00Z') });
      return HttpResponse.json({});
    }),
    route('patch', '/passkeys/:id', (request) => {
      const passkey = passkeys.find((p) => p.id === idOf(request));
      if (passkey) passkey.friendlyName = new URL(request.url).searchParams.get('friendlyName') ?? '';
      return HttpResponse.json({});
    }),
    route('delete', '/passkeys/:id', (request) => {
      passkeys = passkeys.filter((p) => p.id !== idOf(request));
      return HttpResponse.json({});
    }),
  ];
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  setAppName('accounts');
  mockRouter = fakeRouter('/passkeys');
  mockRouter.query = { token };
  requests = [];
  passkeys = [
    {
      id: '6f1c2a7e-0d7b-4c6e-8a3e-2f9b1d4c5a60',
      friendlyName: 'YubiKey',
      createdAt: µs('2026-01-05T12:00:00Z'),
      lastUsedAt: µs('2026-11-20T12:30:00Z'),
    },
  ];
  server.resetHandlers(...serverRoutes());
});
afterEach(async () => {
  jest.clearAllMocks();
  window.history.replaceState(null, '', '/');
  sessionStorage.clear();
  localStorage.clear();
  await deleteKVDatabase();
});
afterAll(() => server.close());

async function openPage() {
  renderInShell(<PasskeysPage />);
  const list = await screen.findByRole('list', { name: 'Your passkeys' });
  return { list, user: userEvent.setup() };
}

const nameField = () => screen.getByRole('textbox', { name: 'Passkey name' });

/** "Add passkey" on the page opens the dialog that names it (its code loads then). */
async function openAddDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Add passkey' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
  expect(nameField()).toHaveFocus();
  return dialog;
}

/** Everything this tab keeps in web storage, as one text. */
function storedText(): string {
  const entries = (storage: Storage) =>
    Array.from({ length: storage.length }, (_, index) => {
      const key = storage.key(index) ?? '';
      return `${key}=${storage.getItem(key) ?? ''}`;
    });
  return [...entries(sessionStorage), ...entries(localStorage)].join('\n');
}

test("the token in the fragment (our apps' settings) is used, leaves the address and is not stored", async () => {
  mockRouter.query = {};
  window.history.replaceState(null, '', `/passkeys#token=${token}`);
  mockRouter.replace.mockImplementation((url: string) => {
    window.history.replaceState(null, '', url);
    return Promise.resolve(true);
  });
  await openPage();
  expect(mockRouter.replace.mock.calls).toEqual([['/passkeys', undefined, { shallow: true }]]);
  expect(window.location.href).not.toContain(token);
  expect(storedText()).not.toContain(token);
  expect(requests).toEqual([{ method: 'GET', path: '/passkeys', query: {}, body: undefined, token }]);
});

test("the token in the query (Ente's apps) leaves the address and is not stored; the list shows name, added and last used", async () => {
  const { list } = await openPage();
  expect(mockRouter.replace.mock.calls).toEqual([['/passkeys', undefined, { shallow: true }]]);
  expect(storedText()).not.toContain(token);
  const [row] = within(list).getAllByRole('listitem');
  expect(row).toHaveTextContent('YubiKey');
  expect(row).toHaveTextContent(/Added Jan 5, 2026/);
  expect(row).toHaveTextContent(/Last used Nov 20, 2026/);
  expect(requests).toEqual([{ method: 'GET', path: '/passkeys', query: {}, body: undefined, token }]);
});

test('a passkey never used says only when it was added', async () => {
  delete passkeys[0]?.lastUsedAt;
  const { list } = await openPage();
  expect(within(list).getByRole('listitem')).not.toHaveTextContent('Last used');
});

test('adding: the name is checked first, then the credential goes to the server in the protocol shape', async () => {
  // The browser's credential in the protocol's shape: what the server must get, without the browser's extras.
  const credential = {
    id: 'Y3JlZGVudGlhbA',
    rawId: 'Y3JlZGVudGlhbA',
    type: 'public-key' as const,
    response: {
      attestationObject: 'YXR0ZXN0YXRpb24',
      clientDataJSON: 'Y2xpZW50RGF0YQ',
      transports: ['internal' as const, 'hybrid' as const],
    },
  };
  jest
    .mocked(startRegistration)
    .mockResolvedValue({ ...credential, clientExtensionResults: {}, authenticatorAttachment: 'platform' });
  const { list, user } = await openPage();
  const dialog = await openAddDialog(user);
  expect(nameField()).toHaveAccessibleDescription('For example, the device or security key that holds it.');
  await user.click(within(dialog).getByRole('button', { name: 'Add passkey' }));
  expect(nameField()).toHaveAccessibleDescription('Enter a name for the passkey.');
  await user.type(nameField(), 'tab\there');
  await user.click(within(dialog).getByRole('button', { name: 'Add passkey' }));
  expect(nameField()).toHaveAccessibleDescription('A name cannot contain control characters.');
  expect(requests).toHaveLength(1);

  await user.clear(nameField());
  await user.type(nameField(), '  Phone 📱  {Enter}');
  await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
  expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: creationOptions });
  const finish = requests.find((r) => r.path === '/passkeys/registration/finish');
  expect(finish).toEqual({
    method: 'POST',
    path: '/passkeys/registration/finish',
    query: { friendlyName: 'Phone 📱', sessionID: '0b5e3c8e-3f0a-4c51-9d43-7c1e2a9e0f11' },
    body: credential,
    token,
  });
  expect(within(list).getAllByRole('listitem')[1]).toHaveTextContent('Phone 📱');
  // Done: the dialog is gone.
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

test('a prompt the person closed says nothing; the limit and a known authenticator are said', async () => {
  const { user } = await openPage();
  const dialog = await openAddDialog(user);
  const attempt = async (failure: unknown) => {
    jest.mocked(startRegistration).mockRejectedValueOnce(failure);
    await user.clear(nameField());
    await user.type(nameField(), 'Laptop{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Add passkey' })).toBeEnabled());
  };
  await attempt(
    Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }),
  );
  // Nothing said, and the dialog stays for another try.
  expect(nameField()).toHaveAccessibleDescription('For example, the device or security key that holds it.');
  await attempt(Object.assign(new Error('The authenticator was previously registered'), { name: 'InvalidStateError' }));
  expect(nameField()).toHaveAccessibleDescription('This authenticator already holds a passkey for your account.');

  server.use(
    route('post', '/passkeys/registration/begin', () =>
      HttpResponse.json({ code: 'MAX_PASSKEYS_REACHED', message: 'Max passkeys limit reached' }, { status: 409 }),
    ),
  );
  await attempt(undefined);
  expect(nameField()).toHaveAccessibleDescription('You already have 10 passkeys. Delete one to add another.');
  expect(requests.filter((r) => r.path === '/passkeys/registration/finish')).toEqual([]);
});

test('renaming: the dialog starts from the name and sends the new one', async () => {
  const { list, user } = await openPage();
  await user.click(within(list).getByRole('button', { name: 'Rename YubiKey' }));
  const dialog = await screen.findByRole('dialog', { name: 'Rename passkey' });
  const field = within(dialog).getByRole('textbox', { name: 'Passkey name' });
  expect(field).toHaveValue('YubiKey');
  await user.clear(field);
  await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
  expect(field).toHaveAccessibleDescription('Enter a name for the passkey.');
  await user.type(field, 'YubiKey 5C');
  await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(requests.find((r) => r.method === 'PATCH')).toMatchObject({
    path: `/passkeys/${passkeys[0]?.id ?? ''}`,
    query: { friendlyName: 'YubiKey 5C' },
    token,
  });
  expect(await within(list).findByText('YubiKey 5C')).toBeInTheDocument();
});

test('deleting asks first, warning about the last passkey', async () => {
  const { list, user } = await openPage();
  await user.click(within(list).getByRole('button', { name: 'Delete YubiKey' }));
  const dialog = screen.getByRole('dialog', { name: 'Delete passkey?' });
  expect(dialog).toHaveTextContent('It is your last passkey: signing in will no longer ask for one.');
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(requests.some((r) => r.method === 'DELETE')).toBe(false);

  await user.click(within(list).getByRole('button', { name: 'Delete YubiKey' }));
  await user.click(
    within(screen.getByRole('dialog', { name: 'Delete passkey?' })).getByRole('button', { name: 'Delete' }),
  );
  expect(await screen.findByText(/No passkeys yet/)).toBeInTheDocument();
  expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
    '/passkeys/6f1c2a7e-0d7b-4c6e-8a3e-2f9b1d4c5a60',
  ]);
});

test('a token that is over: the page says to open it again from the app, and offers nothing else', async () => {
  server.use(route('get', '/passkeys', () => HttpResponse.json({ error: 'token expired' }, { status: 401 })));
  renderInShell(<PasskeysPage />);
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'This page has expired. Open Passkeys again from the settings of your app.',
  );
  expect(screen.queryByRole('textbox', { name: 'Passkey name' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
});

test('without a token, signed out: to /login', async () => {
  mockRouter.query = {};
  renderInShell(<PasskeysPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
  expect(requests).toEqual([]);
});

test('an empty token in the fragment is cleared from the address like any other; signed out: to /login', async () => {
  mockRouter.query = {};
  window.history.replaceState(null, '', '/passkeys#token=');
  renderInShell(<PasskeysPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
  expect(mockRouter.replace.mock.calls[0]).toEqual(['/passkeys', undefined, { shallow: true }]);
  expect(requests).toEqual([]);
});
