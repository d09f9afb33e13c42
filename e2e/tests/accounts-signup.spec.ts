// Sign-up and sign-in through the pages of the auth app against the real server: the e-mail code comes
// from the server log, the recovery key is saved (downloaded) and matches the account's, logout leaves
// only the device preferences behind, and the password signs in again with one sensitive derivation.
// Throughout, the page keeps drawing frames: key derivation runs in the crypto worker.
import { expect, test } from '@playwright/test';

import { cryptoAPI } from '@ente/crypto/api.ts';

import { uniqueEmail } from '../api.ts';
import { argon2Runs, expectOnlyPreferencesLeft, maxFrameGapMs, startFrameProbe, stopFrameProbe } from '../probes.ts';
import { SecretsCollector } from '../secrets.ts';
import { enterEmail, enterPassword, expectHome, logOut, newPassword, openLogin, signUp } from '../ui.ts';

test('sign up at the auth app, save the recovery key, log out, sign in with the password', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('signup');
  const password = newPassword();
  const secrets = new SecretsCollector(testInfo).add('emails', email);

  const { recoveryWords } = await signUp(
    page,
    'auth',
    { email, password },
    { onFormShown: () => startFrameProbe(page) },
  );
  const signUpFrames = await stopFrameProbe(page);
  await secrets.fromSignedInPage(page, password);
  secrets.add('recoveryWords', recoveryWords);
  await secrets.save();
  // The words shown and saved are the recovery key the account's attributes hold.
  expect(await cryptoAPI.recoveryKeyFromInput(recoveryWords)).toBe(secrets.record.recoveryKeys[0]);
  expect(
    signUpFrames.maxGapMs,
    `longest frame gaps during sign-up: ${JSON.stringify(signUpFrames)}`,
  ).toBeLessThanOrEqual(maxFrameGapMs);

  await logOut(page);
  await expectOnlyPreferencesLeft(page);

  await openLogin(page, 'auth');
  // From the e-mail field of /login to the home page, typing included.
  await startFrameProbe(page);
  await enterEmail(page, email);
  await enterPassword(page, password);
  await expectHome(page, 'auth', email);
  const signInFrames = await stopFrameProbe(page);
  await secrets.fromSignedInPage(page, password);
  await secrets.save();
  expect(
    signInFrames.maxGapMs,
    `longest frame gaps during sign-in: ${JSON.stringify(signInFrames)}`,
  ).toBeLessThanOrEqual(maxFrameGapMs);
  // A new device derives the KEK once with the server's parameters (and then the fast local one).
  const runs = await argon2Runs(page);
  const sensitive = runs.filter(({ detail }) => detail.opsLimit * detail.memLimit === 4 * 1024 ** 3);
  expect(sensitive, JSON.stringify(runs)).toHaveLength(1);

  await logOut(page);
  await expectOnlyPreferencesLeft(page);
});
