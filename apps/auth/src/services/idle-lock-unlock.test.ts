// After the idle lock, the password step unlocks the tab again the way the brief of the lock says:
// /credentials is in "unlock" mode, one Argon2id run with the local interactive attributes (no SRP, no
// request), the masterKey is back in this tab, and the way leads home to /auth.
import { backgroundWorkSettled } from '@ente/accounts/services/flow-state.ts';
import { credentialsMode, startLogin, submitPassword } from '@ente/accounts/services/login.ts';
import { masterKeyOfThisTab } from '@ente/accounts/services/storage.ts';
import { fakeServerPerTest } from '@ente/accounts/testing/flow-test-setup.ts';
import { cryptoWorker } from '@ente/crypto/client.ts';

import { lockThisTab } from './idle-lock.ts';

const t = fakeServerPerTest();
const email = 'ada@example.org';
const password = 'correct horse';

test('a locked tab unlocks with one interactive derivation and returns to /auth', async () => {
  const account = await t.fake.addAccount(email, password);
  await startLogin(email);
  expect(await submitPassword(password)).toBe('/auth');
  await backgroundWorkSettled(); // the interactive attributes are made after the sign-in

  const vault = { close: jest.fn() };
  lockThisTab(vault);
  expect(vault.close).toHaveBeenCalled();
  expect(await masterKeyOfThisTab()).toBeUndefined();
  expect(credentialsMode()).toBe('unlock');

  // The crypto worker was ended: this is the fresh one the password step gets.
  const crypto = await cryptoWorker();
  expect(crypto).not.toBe(t.crypto);
  const deriveKEK = jest.spyOn(crypto, 'deriveKEK');
  const requests = t.fake.requests.length;
  expect(await submitPassword(password)).toBe('/auth');
  expect(deriveKEK).toHaveBeenCalledTimes(1);
  expect(deriveKEK.mock.calls[0]?.[1]).toMatchObject({ opsLimit: 2, memLimit: 67108864 });
  expect(t.fake.requests.length).toBe(requests);
  expect(await masterKeyOfThisTab()).toBe(account.keys.masterKey);
});
