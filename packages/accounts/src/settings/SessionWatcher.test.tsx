import 'fake-indexeddb/auto';

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { z } from 'zod';

import { setAppName } from '@ente/shared/app-name.ts';
import { reloadAt } from '@ente/shared/app/navigation.ts';
import { getJSON, post } from '@ente/shared/http.ts';
import { logout } from '@ente/shared/logout.ts';
import { savedIsFirstLogin, savedKeyAttributes, savedSrpAttributes } from '@ente/shared/storage/account-storage.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { resetSessionExpiredDialog } from './session-expired.ts';
import { resetSessionValidityCheck, SessionWatcher } from './SessionWatcher.tsx';
import { saveTestAccount, sensitiveVector, testApiOrigin, type TestAccount } from './testing/account-fixture.ts';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));
jest.mock('@ente/shared/app/navigation.ts', () => ({ reloadAt: jest.fn() }));
jest.mock('@ente/shared/logout.ts', () => ({ logout: jest.fn(() => Promise.resolve()) }));

const server = setupServer();
let account: TestAccount;
/** How often the check at page load reached its last step (the SRP attributes). */
let srpAttributeFetches = 0;

/** The server's SRP attributes: those saved locally, or others after a password change elsewhere. */
function srpAttributes(kekSalt: string) {
  return {
    srpUserID: '00000000-0000-4000-8000-000000000000',
    srpSalt: 'EBESExQVFhcYGRobHB0eHw==',
    memLimit: sensitiveVector.memLimit,
    opsLimit: sensitiveVector.opsLimit,
    kekSalt,
    isEmailMFAEnabled: false,
  };
}

function validSession(kekSalt = sensitiveVector.salt) {
  return [
    http.get(`${testApiOrigin}/users/session-validity/v2`, () =>
      HttpResponse.json({ hasSetKeys: true, keyAttributes: remoteKeyAttributes(kekSalt) }),
    ),
    http.get(`${testApiOrigin}/users/srp/attributes`, () => {
      srpAttributeFetches += 1;
      return HttpResponse.json({ attributes: srpAttributes(kekSalt) });
    }),
  ];
}

/** The server's key attributes: the sensitive parameters, all fields present. */
function remoteKeyAttributes(kekSalt: string) {
  return {
    ...account.keyAttributes,
    kekSalt,
    opsLimit: sensitiveVector.opsLimit,
    memLimit: sensitiveVector.memLimit,
    kekHash: '',
  };
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(async () => {
  mockRouter = fakeRouter('/auth');
  setAppName('auth');
  resetSessionValidityCheck();
  resetSessionExpiredDialog();
  srpAttributeFetches = 0;
  account = await saveTestAccount();
});
afterEach(async () => {
  jest.clearAllMocks();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
});
afterAll(() => server.close());

const anyAnswer = z.unknown();

/** An authenticated request of some page, answered 401 with `body`. */
async function requestAnswered401(body: object, path = '/users/details/v2') {
  server.use(http.get(`${testApiOrigin}${path}`, () => HttpResponse.json(body, { status: 401 })));
  await act(() => getJSON(path, anyAnswer, { auth: true }).catch(() => undefined));
}

async function renderWatcher() {
  const view = renderInShell(<SessionWatcher />);
  // The validity check of the page load has run.
  await waitFor(() => expect(srpAttributeFetches).toBe(1));
  return view;
}

test('a 401 for the token shows "session expired", which only logout leaves', async () => {
  server.use(...validSession());
  await renderWatcher();
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  await requestAnswered401({ error: 'invalid token' });

  const dialog = await screen.findByRole('dialog', { name: 'Session expired' });
  expect(dialog).toHaveTextContent(
    'Your session has ended, for example because you signed out on another device or changed your password there. Please sign in again.',
  );
  expect(
    within(dialog)
      .getAllByRole('button')
      .map((button) => button.textContent),
  ).toEqual(['Log out']);
  const user = userEvent.setup();
  await user.keyboard('{Escape}');
  expect(screen.getByRole('dialog', { name: 'Session expired' })).toBeInTheDocument();

  await user.click(within(dialog).getByRole('button', { name: 'Log out' }));
  await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/'));
  expect(logout).toHaveBeenCalledTimes(1);
});

test('many failing requests show the dialog once', async () => {
  server.use(...validSession());
  await renderWatcher();
  await requestAnswered401({ error: 'token expired' });
  await requestAnswered401({ error: 'token expired' });
  await screen.findByRole('dialog', { name: 'Session expired' });
  expect(screen.getAllByRole('dialog')).toHaveLength(1);
});

test('a wrong code at an authenticated endpoint is not an ended session', async () => {
  server.use(
    ...validSession(),
    http.post(`${testApiOrigin}/users/two-factor/enable`, () => HttpResponse.json({}, { status: 401 })),
    http.post(`${testApiOrigin}/users/change-email`, () => HttpResponse.json({}, { status: 401 })),
  );
  await renderWatcher();
  await act(() => post('/users/two-factor/enable', { code: '000000' }, { auth: true }).catch(() => undefined));
  await act(() =>
    post('/users/change-email', { email: 'x@y.org', ott: '000000' }, { auth: true }).catch(() => undefined),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

test('the check at page load finds an ended session', async () => {
  server.use(
    http.get(`${testApiOrigin}/users/session-validity/v2`, () =>
      HttpResponse.json({ error: 'invalid token' }, { status: 401 }),
    ),
  );
  renderInShell(<SessionWatcher />);
  expect(await screen.findByRole('dialog', { name: 'Session expired' })).toBeInTheDocument();
});

test('a password changed on another device replaces the local attributes and reloads the page', async () => {
  const newSalt = 'ICEiIyQlJicoKSorLC0uLw==';
  server.use(...validSession(newSalt));
  mockRouter = fakeRouter('/auth');
  renderInShell(<SessionWatcher />);
  await waitFor(() => expect(reloadAt).toHaveBeenCalledTimes(1));
  expect(savedKeyAttributes()).toMatchObject({ kekSalt: newSalt, opsLimit: sensitiveVector.opsLimit });
  expect(savedSrpAttributes()?.kekSalt).toBe(newSalt);
  expect(savedIsFirstLogin()).toBe(true);
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

test('the check runs once per page load, and an unmounted watcher no longer listens', async () => {
  let checks = 0;
  server.use(
    // Listed first, so it answers before validSession's own handler of the same route.
    http.get(`${testApiOrigin}/users/session-validity/v2`, () => {
      checks += 1;
      return HttpResponse.json({ hasSetKeys: true, keyAttributes: remoteKeyAttributes(sensitiveVector.salt) });
    }),
    ...validSession(),
  );
  const first = await renderWatcher();
  first.unmount();
  const second = renderInShell(<SessionWatcher />);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(checks).toBe(1);
  second.unmount();
  await requestAnswered401({ error: 'invalid token' });
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});
