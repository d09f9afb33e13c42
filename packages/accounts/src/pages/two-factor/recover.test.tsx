// /two-factor/recover against the fake server: the recovery key (words or hex) removes two-factor and
// signs in; each problem with the key has its own message next to the field; an account without a
// stored secret is told to contact support.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { cryptoAPI } from '@ente/crypto/api.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { verifyEmail } from '../../services/verify.ts';
import { apiOrigin, emailCode } from '../../testing/fake-server.ts';
import { fakeServerPerTest } from '../../testing/flow-test-setup.ts';
import TwoFactorRecoverPage from './recover.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const t = fakeServerPerTest();
const email = 'ada@example.org';
const password = 'correct horse';
let recoveryKey: string;

beforeEach(async () => {
  mockRouter = fakeRouter('/two-factor/recover');
  recoveryKey = (await t.fake.addAccount(email, password, { twoFactor: true, srp: false })).keys.recoveryKey;
  // Signed in by e-mail code (no SRP arithmetic, which is slow in tests) up to the second factor.
  await saveUser({ email });
  expect(await verifyEmail(emailCode)).toBe('/two-factor/verify');
});

async function submitKey(text: string) {
  renderInShell(<TwoFactorRecoverPage />);
  const field = screen.getByRole('textbox', { name: 'Recovery key' });
  const user = userEvent.setup();
  await user.click(field);
  if (text) await user.paste(text);
  await user.keyboard('{Enter}');
  return field;
}

test('the recovery words remove two-factor and lead to /credentials', async () => {
  await submitKey(await cryptoAPI.recoveryKeyToWords(recoveryKey));
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/credentials'));
  expect(t.fake.requestsTo('post', '/users/two-factor/remove')).toHaveLength(1);
});

test('the older 64-character hex key works too', async () => {
  await submitKey(Buffer.from(recoveryKey, 'base64').toString('hex'));
  await waitFor(() => expect(mockRouter.push).toHaveBeenCalledWith('/credentials'));
});

test.each([
  ['nothing', '', 'Enter your recovery key.'],
  ['too few words', 'abandon ability able', 'A recovery key has 24 words.'],
  [
    'a word not on the list',
    `${'abandon '.repeat(23)}notaword`,
    'The recovery key contains a word that is not on the word list.',
  ],
  [
    'a wrong checksum',
    'abandon '.repeat(24).trim(),
    'These words are not a valid recovery key. Please check them for typos.',
  ],
  ['neither words nor a hex key', 'notakey', 'This is not a valid recovery key.'],
])('%s: said next to the field', async (_, text, message) => {
  const field = await submitKey(text);
  await waitFor(() => expect(field).toHaveAccessibleDescription(message));
  expect(mockRouter.push).not.toHaveBeenCalled();
  expect(t.fake.requestsTo('post', '/users/two-factor/remove')).toEqual([]);
});

test('the words of another key: "incorrect recovery key"', async () => {
  const other = await cryptoAPI.recoveryKeyToWords(Buffer.alloc(32, 7).toString('base64'));
  const field = await submitKey(other);
  await waitFor(() => expect(field).toHaveAccessibleDescription('Incorrect recovery key'));
});

test('no stored secret: a dialog says to contact support', async () => {
  t.msw.use(http.get(`${apiOrigin}/users/two-factor/recover`, () => HttpResponse.json({}, { status: 404 })));
  renderInShell(<TwoFactorRecoverPage />);
  expect(await screen.findByRole('dialog')).toHaveTextContent(
    'Two-factor authentication cannot be recovered for this account. Please contact support.',
  );
  expect(screen.getByRole('alert', { hidden: true })).toHaveTextContent(/contact support/);
});

test('"I have my authenticator app" goes back to /two-factor/verify', () => {
  renderInShell(<TwoFactorRecoverPage />);
  expect(screen.getByRole('link', { name: 'I have my authenticator app' })).toHaveAttribute(
    'href',
    '/two-factor/verify',
  );
});
