// /recover against the fake server: without the account's keys it sends a code and goes to /verify
// (coming back here); with them, the recovery key opens the account and leads to the new password.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { masterKeyOfThisTab } from '../services/storage.ts';
import { verifyEmail } from '../services/verify.ts';
import { apiOrigin, emailCode } from '../testing/fake-server.ts';
import { fakeServerPerTest } from '../testing/flow-test-setup.ts';
import RecoverPage from './recover.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const t = fakeServerPerTest();
const email = 'ada@example.org';

beforeEach(() => {
  mockRouter = fakeRouter('/recover');
});

test('without the keys yet: a code is sent and the page goes to /verify', async () => {
  await t.fake.addAccount(email, 'forgotten', { srp: false });
  await saveUser({ email });
  renderInShell(<RecoverPage />);
  expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/verify'));
  expect(t.fake.requestsTo('post', '/users/ott')[0]?.body).toEqual({ email, client: 'totp' });
});

test('without an address: back to /login', async () => {
  renderInShell(<RecoverPage />);
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/login'));
});

test('a code that cannot be sent: said, with a way to try again', async () => {
  await t.fake.addAccount(email, 'forgotten', { srp: false });
  await saveUser({ email });
  t.msw.use(http.post(`${apiOrigin}/users/ott`, () => HttpResponse.json({}, { status: 429 }), { once: true }));
  renderInShell(<RecoverPage />);
  await waitFor(() =>
    expect(screen.getByRole('alert')).toHaveTextContent('Too many attempts. Please try again later.'),
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/verify'));
});

describe('with the keys here (back from /verify)', () => {
  let keys: { recoveryKey: string; masterKey: string };

  beforeEach(async () => {
    keys = (await t.fake.addAccount(email, 'forgotten', { srp: false })).keys;
    await saveUser({ email });
    await verifyEmail(emailCode);
  });

  async function submitKey(text: string) {
    renderInShell(<RecoverPage />);
    const field = await screen.findByRole('textbox', { name: 'Recovery key' });
    expect(field).toHaveFocus();
    const user = userEvent.setup();
    if (text) await user.paste(text);
    await user.keyboard('{Enter}');
    return field;
  }

  test('the recovery words open the account and lead to the new password', async () => {
    await submitKey(await cryptoAPI.recoveryKeyToWords(keys.recoveryKey));
    await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/change-password?op=reset'));
    expect(await masterKeyOfThisTab()).toBe(keys.masterKey);
  });

  test('extra spaces and line breaks between the words do not matter', async () => {
    const words = (await cryptoAPI.recoveryKeyToWords(keys.recoveryKey)).split(' ');
    await submitKey(`  ${words.slice(0, 12).join('  ')}\n${words.slice(12).join(' ')} `);
    await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/change-password?op=reset'));
  });

  test.each([
    ['nothing', '', 'Enter your recovery key.'],
    ['23 words', 'abandon '.repeat(23).trim(), 'A recovery key has 24 words.'],
    [
      'a wrong checksum',
      'abandon '.repeat(24).trim(),
      'These words are not a valid recovery key. Please check them for typos.',
    ],
  ])('%s: said next to the field', async (_, text, message) => {
    const field = await submitKey(text);
    await waitFor(() => expect(field).toHaveAccessibleDescription(message));
    expect(mockRouter.push).not.toHaveBeenCalled();
  });

  test('another key: "incorrect recovery key"', async () => {
    const field = await submitKey(await cryptoAPI.recoveryKeyToWords(Buffer.alloc(32, 7).toString('base64')));
    await waitFor(() => expect(field).toHaveAccessibleDescription('Incorrect recovery key'));
    expect(await masterKeyOfThisTab()).toBeUndefined();
  });
});
