// /passkeys/finish against the fake server: the accounts app's answer for the sign-in this tab started
// signs in (→ /credentials); an answer for another sign-in goes home; a damaged one says so and leads
// back to the login.
import { screen, waitFor } from '@testing-library/react';

import { savedUser, saveUser } from '@ente/shared/storage/local-storage.ts';
import { fakeRouter, type FakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { passkeyVerificationURL } from '../../services/passkeys.ts';
import { verifyEmail } from '../../services/verify.ts';
import { emailCode } from '../../testing/fake-server.ts';
import { fakeServerPerTest } from '../../testing/flow-test-setup.ts';
import PasskeysFinishPage from './finish.tsx';

let mockRouter: FakeRouter;
jest.mock('next/router', () => ({ useRouter: () => mockRouter }));

const t = fakeServerPerTest();
const email = 'ada@example.org';

/** Signed in by e-mail code up to the passkey, sent to the accounts app; the answer it gives back. */
async function answerOfTheAccountsApp() {
  const account = await t.fake.addAccount(email, 'correct horse', { passkey: true, srp: false });
  await saveUser({ email });
  expect(await verifyEmail(emailCode)).toMatch(/\/passkeys\/verify\?/);
  passkeyVerificationURL('https://auth.example.org');
  const passkeySessionID = savedUser()?.passkeySessionID ?? '';
  const answer = await t.fake.passkeyVerified(passkeySessionID);
  const response = Buffer.from(JSON.stringify(answer), 'utf8').toString('base64url');
  return { account, passkeySessionID, response };
}

function arrive(query: Record<string, string>) {
  mockRouter = fakeRouter('/passkeys/finish');
  mockRouter.query = query;
  renderInShell(<PasskeysFinishPage />);
}

test('the answer for this sign-in is kept and the sign-in goes on at /credentials', async () => {
  const { account, passkeySessionID, response } = await answerOfTheAccountsApp();
  arrive({ passkeySessionID, response });
  expect(screen.getByRole('progressbar', { name: 'Signing in with your passkey' })).toBeInTheDocument();
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/credentials'));
  expect(savedUser()).toMatchObject({ id: account.id, email });
  expect(savedUser()?.encryptedToken).toBeDefined();
  expect(savedUser()?.passkeySessionID).toBeUndefined();
});

test('an answer for a sign-in this tab did not start goes home, keeping nothing', async () => {
  const { response } = await answerOfTheAccountsApp();
  arrive({ passkeySessionID: `${'B'.repeat(43)}=`, response });
  await waitFor(() => expect(mockRouter.replace).toHaveBeenCalledWith('/'));
  expect(savedUser()?.encryptedToken).toBeUndefined();
});

test('a damaged answer says so, with the way back to the login', async () => {
  const { passkeySessionID, response } = await answerOfTheAccountsApp();
  arrive({ passkeySessionID, response: response.slice(0, -8) });
  expect(await screen.findByText('This passkey sign-in could not be completed. Please log in again.')).toBeVisible();
  expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  expect(mockRouter.replace).not.toHaveBeenCalled();
  expect(savedUser()?.encryptedToken).toBeUndefined();
});
