import 'fake-indexeddb/auto';

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { setAppName } from '@ente/shared/app-name.ts';
import { savedApiOrigin } from '@ente/shared/origins.ts';
import { deleteKVDatabase, saveKV } from '@ente/shared/storage/kv.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import LoginPage from './login.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const server = setupServer();
const pinged: string[] = [];

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => pinged.push(request.url));
  setAppName('accounts');
  // The dialog loads the HTTP client on demand; load it once here so no test pays for it.
  await import('@ente/shared/http.ts');
});
beforeEach(() => {
  mockRouter = fakeRouter('/login');
});
afterEach(async () => {
  server.resetHandlers();
  pinged.length = 0;
  localStorage.clear();
  await deleteKVDatabase();
});
afterAll(() => server.close());

test('is a page with the header, and its heading, sentence and e-mail field in main', () => {
  renderInShell(<LoginPage />);
  expect(screen.getByRole('banner')).toBeInTheDocument();
  const main = screen.getByRole('main');
  expect(within(main).getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  expect(within(main).getByText('Enter the e-mail address of your account.')).toBeInTheDocument();
  expect(within(main).getByRole('textbox', { name: 'E-mail address' })).toHaveFocus();
});

test('the password page is fetched ahead at the first character typed, not before and only once', async () => {
  renderInShell(<LoginPage />);
  expect(mockRouter.prefetch).not.toHaveBeenCalled();
  await userEvent.setup().type(screen.getByRole('textbox', { name: 'E-mail address' }), 'ada');
  expect(mockRouter.prefetch).toHaveBeenCalledTimes(1);
  expect(mockRouter.prefetch).toHaveBeenCalledWith('/credentials');
});

describe('opening the developer settings', () => {
  test('7 clicks on the page background open them; 6 do not', async () => {
    const user = userEvent.setup();
    renderInShell(<LoginPage />);
    await clickBackground(user, 6);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await clickBackground(user, 1);
    expect(await screen.findByRole('dialog', { name: 'Developer settings' })).toBeInTheDocument();
  });

  test('clicks on the text of the page do not count', async () => {
    const user = userEvent.setup();
    renderInShell(<LoginPage />);
    const heading = screen.getByRole('heading', { level: 1 });
    for (let i = 0; i < 7; i++) await user.click(heading);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test('the keyboard shortcut Alt+Shift+D opens them', async () => {
    renderInShell(<LoginPage />);
    fireEvent.keyDown(window, { code: 'KeyD', key: 'D', altKey: true, shiftKey: false });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    fireEvent.keyDown(window, { code: 'KeyD', key: 'Î', altKey: true, shiftKey: true });
    expect(await screen.findByRole('dialog', { name: 'Developer settings' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Server endpoint' })).toHaveFocus();
  });
});

describe('the developer settings dialog', () => {
  test('saves an origin that answers pong, then shows it on the page', async () => {
    server.use(http.get('http://localhost:8080/ping', () => HttpResponse.json({ message: 'pong', id: 'x' })));
    const user = await openDialog();
    await enter(user, screen.getByRole('textbox', { name: 'Server endpoint' }), 'http://localhost:8080/');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await savedApiOrigin()).toBe('http://localhost:8080');
    expect(screen.getByText('Connected to http://localhost:8080')).toBeInTheDocument();
    expect(pinged).toEqual(['http://localhost:8080/ping']);
    // The dialog's own form did not submit the login form around it (React sends events up the tree).
    expect(screen.queryByText('Enter your e-mail address.')).not.toBeInTheDocument();
  });

  test.each([
    ['cannot be reached', () => HttpResponse.error(), 'Could not connect to this server.'],
    ['answers with an error', () => HttpResponse.json({}, { status: 502 }), 'Could not connect to this server.'],
    [
      'answers something else',
      () => HttpResponse.json({ message: 'hi' }),
      'This address did not answer like an Ente server.',
    ],
  ])('shows the problem and saves nothing when the origin %s', async (_, resolver, message) => {
    server.use(http.get('http://localhost:9000/ping', resolver));
    const user = await openDialog();
    const field = screen.getByRole('textbox', { name: 'Server endpoint' });
    await enter(user, field, 'http://localhost:9000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(message);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(await savedApiOrigin()).toBeUndefined();
    expect(screen.queryByText(/^Connected to/)).not.toBeInTheDocument();
  });

  test('refuses what is not an http(s) address without contacting it', async () => {
    const user = await openDialog();
    await enter(user, screen.getByRole('textbox', { name: 'Server endpoint' }), 'localhost:8080');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter a full address that starts with http:// or https://.')).toBeInTheDocument();
    expect(pinged).toEqual([]);
    expect(await savedApiOrigin()).toBeUndefined();
  });

  test('editing the field clears the problem shown', async () => {
    const user = await openDialog();
    const field = screen.getByRole('textbox', { name: 'Server endpoint' });
    await enter(user, field, 'nope');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Enter a full address that starts with http:// or https://.');
    await enter(user, field, 'x');
    expect(screen.getByText('Leave empty to use the default server.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'false');
  });

  test('clearing the field removes the stored origin', async () => {
    await saveKV('apiOrigin', 'http://localhost:8080');
    const user = userEvent.setup();
    renderInShell(<LoginPage />);
    expect(await screen.findByText('Connected to http://localhost:8080')).toBeInTheDocument();
    await clickBackground(user, 7);
    const field = await screen.findByRole('textbox', { name: 'Server endpoint' });
    await waitFor(() => expect(field).toHaveValue('http://localhost:8080'));
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await savedApiOrigin()).toBeUndefined();
    expect(screen.queryByText(/^Connected to/)).not.toBeInTheDocument();
    expect(pinged).toEqual([]);
  });

  test('cancel closes it without saving', async () => {
    const user = await openDialog();
    await enter(user, screen.getByRole('textbox', { name: 'Server endpoint' }), 'http://localhost:8080');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await savedApiOrigin()).toBeUndefined();
    expect(pinged).toEqual([]);
  });
});

async function openDialog(): Promise<UserEvent> {
  const user = userEvent.setup();
  renderInShell(<LoginPage />);
  await clickBackground(user, 7);
  await screen.findByRole('dialog', { name: 'Developer settings' });
  return user;
}

/** Types into a field in one go (typing key by key is slow with MUI and adds nothing here). */
async function enter(user: UserEvent, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

async function clickBackground(user: UserEvent, times: number) {
  const main = screen.getByRole('main');
  for (let i = 0; i < times; i++) await user.click(main);
}
