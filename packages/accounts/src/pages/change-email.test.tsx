import 'fake-indexeddb/auto';

import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { setAppName, type AppName } from '@ente/shared/app-name.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { saveTestAccount, testApiOrigin, testEmail, testToken } from '../settings/testing/account-fixture.ts';
import ChangeEmailPage from './change-email.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const server = setupServer();
let requests: { path: string; body: unknown; token: string | null; clientPackage: string | null }[] = [];
const newEmail = 'ada@new.example.org';

/** Records every request, then answers with `answer` (a 200 with no body by default). */
function route(path: string, answer: () => Response = () => new HttpResponse(null, { status: 200 })) {
  return http.post(`${testApiOrigin}${path}`, async ({ request }) => {
    requests.push({
      path,
      body: await request.json(),
      token: request.headers.get('X-Auth-Token'),
      clientPackage: request.headers.get('X-Client-Package'),
    });
    return answer();
  });
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(async () => {
  mockRouter = fakeRouter('/change-email');
  requests = [];
  setAppName('photos');
  await saveTestAccount();
});
afterEach(async () => {
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
});
afterAll(() => server.close());

async function sendCodeTo(address: string): Promise<UserEvent> {
  const user = userEvent.setup();
  renderInShell(<ChangeEmailPage />);
  await user.type(await screen.findByLabelText('New e-mail address'), address);
  await user.click(screen.getByRole('button', { name: 'Send code' }));
  return user;
}

test('sends a code to the new address, and the code (submitted at six digits) moves the account', async () => {
  server.use(route('/users/ott'), route('/users/change-email'));
  const user = await sendCodeTo(`  ${newEmail.toUpperCase()} `);
  expect(await screen.findByRole('heading', { level: 1, name: 'Check your new address' })).toBeInTheDocument();
  expect(screen.getByText(`Enter the 6-digit code we sent to ${newEmail}.`)).toBeInTheDocument();
  await user.type(screen.getByLabelText('6-digit code'), '123 456');
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/gallery'));

  expect(requests).toEqual([
    {
      path: '/users/ott',
      body: { email: newEmail, purpose: 'change', client: 'web' },
      token: null,
      clientPackage: 'io.ente.photos.web',
    },
    {
      path: '/users/change-email',
      body: { email: newEmail, ott: '123456' },
      token: testToken,
      clientPackage: 'io.ente.photos.web',
    },
  ]);
  expect(savedUser()).toMatchObject({ email: newEmail, id: 7, token: testToken });
});

test('the auth app sends client "totp"', async () => {
  setAppName('auth' satisfies AppName);
  server.use(route('/users/ott'));
  await sendCodeTo(newEmail);
  await screen.findByRole('heading', { level: 1, name: 'Check your new address' });
  expect(requests[0]?.body).toEqual({ email: newEmail, purpose: 'change', client: 'totp' });
  expect(requests[0]?.clientPackage).toBe('io.ente.auth.web');
});

test.each([
  ['not an address', 'Enter a valid e-mail address, such as name@example.org.'],
  [testEmail.toUpperCase(), "This is already your account's address."],
])('refuses %s without a request', async (address, message) => {
  await sendCodeTo(address);
  expect(await screen.findByText(message)).toBeInTheDocument();
  expect(screen.getByLabelText('New e-mail address')).toHaveAccessibleDescription(message);
  expect(requests).toEqual([]);
});

test('an address in use is said at the field (403)', async () => {
  server.use(route('/users/ott', () => HttpResponse.json({}, { status: 403 })));
  await sendCodeTo(newEmail);
  expect(await screen.findByText('This e-mail address is already in use.')).toBeInTheDocument();
  expect(screen.getByRole('heading', { level: 1, name: 'Change e-mail' })).toBeInTheDocument();
});

test('the rate limit of the code sender is said in the form (429)', async () => {
  server.use(route('/users/ott', () => HttpResponse.json({}, { status: 429 })));
  await sendCodeTo(newEmail);
  expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.');
});

test.each([
  [401, {}, 'Incorrect code', true],
  [410, {}, 'This code has expired. Please request a new one.', true],
  [429, {}, 'Too many incorrect attempts. Please try again later.', false],
  [403, {}, 'This e-mail address is already in use.', false],
  [401, { error: 'invalid token' }, 'Your session has expired. Please sign in again.', false],
])('a %i %j answer to the code says: %s', async (status, body, message, atTheField) => {
  server.use(
    route('/users/ott'),
    route('/users/change-email', () => HttpResponse.json(body, { status })),
  );
  const user = await sendCodeTo(newEmail);
  const field = await screen.findByLabelText('6-digit code');
  await user.type(field, '654321');
  expect(await screen.findByText(message)).toBeInTheDocument();
  if (atTheField) {
    expect(field).toHaveAccessibleDescription(message);
    // Cleared for the next attempt, and focused again.
    expect(field).toHaveValue('');
    await waitFor(() => expect(field).toHaveFocus());
  } else {
    expect(screen.getByRole('alert')).toHaveTextContent(message);
  }
  expect(savedUser()?.email).toBe(testEmail);
  expect(mockRouter.push).not.toHaveBeenCalled();
});

test('an incomplete code is not sent', async () => {
  server.use(route('/users/ott'));
  const user = await sendCodeTo(newEmail);
  await user.type(await screen.findByLabelText('6-digit code'), '123');
  await user.click(screen.getByRole('button', { name: 'Change e-mail' }));
  expect(await screen.findByText('Enter all 6 digits of the code.')).toBeInTheDocument();
  expect(requests.map((r) => r.path)).toEqual(['/users/ott']);
});

test('sends the code again, or goes back for another address', async () => {
  server.use(route('/users/ott'));
  const user = await sendCodeTo(newEmail);
  await user.click(await screen.findByRole('button', { name: 'Send the code again' }));
  expect(await screen.findByText(`A new code is on its way to ${newEmail}.`)).toBeInTheDocument();
  expect(requests.map((r) => r.body)).toEqual([
    { email: newEmail, purpose: 'change', client: 'web' },
    { email: newEmail, purpose: 'change', client: 'web' },
  ]);
  await user.click(screen.getByRole('button', { name: 'Use a different address' }));
  expect(await screen.findByLabelText('New e-mail address')).toBeInTheDocument();
});

test('a signed-out visitor goes to /login', async () => {
  localStorage.clear();
  renderInShell(<ChangeEmailPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
});
