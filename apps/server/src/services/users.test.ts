// The account rules without HTTP: concurrent first logins make one user, the recovery key is set once,
// e-mail MFA stays on without a password, an address change refuses a taken address and tells the old one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { HttpError } from '../http/errors.ts';
import { insertUser, suiteContext } from '../testing/context.ts';
import { changeEmail, findOrCreateUser, setEmailMfa, setRecoveryKey, userByEmail } from './users.ts';

const refusedWith = (status: number) => (error: unknown) => error instanceof HttpError && error.status === status;

describe('user services', () => {
  const testContext = suiteContext();

  test('concurrent first logins of one address make one user', async () => {
    const { ctx } = testContext();
    const ids = await Promise.all(Array.from({ length: 5 }, () => findOrCreateUser(ctx, 'first@example.org', 'auth')));
    assert.equal(new Set(ids).size, 1);
    assert.equal(Number((await userByEmail(ctx, 'first@example.org'))?.user_id), ids[0]);
  });

  test('registration disabled: an unknown address is refused (403), a known one signs in', async () => {
    const { ctx } = testContext();
    const known = await insertUser(ctx, 'known@example.org');
    const closed = { ...ctx, config: { ...ctx.config, DISABLE_REGISTRATION: true } };
    await assert.rejects(findOrCreateUser(closed, 'stranger@example.org', undefined), refusedWith(403));
    assert.equal(await findOrCreateUser(closed, 'known@example.org', undefined), known);
  });

  test('a recovery key needs key attributes (404)', async () => {
    const { ctx } = testContext();
    const userID = await insertUser(ctx, 'no-keys@example.org');
    const body = {
      masterKeyEncryptedWithRecoveryKey: 'a',
      masterKeyDecryptionNonce: 'b',
      recoveryKeyEncryptedWithMasterKey: 'c',
      recoveryKeyDecryptionNonce: 'd',
    };
    await assert.rejects(setRecoveryKey(ctx, userID, body), refusedWith(404));
  });

  test('e-mail MFA cannot be turned off without a password (409), and can be turned on', async () => {
    const { ctx } = testContext();
    const userID = await insertUser(ctx, 'mfa@example.org');
    await assert.rejects(setEmailMfa(ctx, userID, false), refusedWith(409));
    await setEmailMfa(ctx, userID, true);
    assert.equal((await userByEmail(ctx, 'mfa@example.org'))?.is_email_mfa_enabled, true);
  });

  test('an address change refuses a taken address (403) and tells the old address of a change', async () => {
    const { ctx, mail } = testContext();
    const userID = await insertUser(ctx, 'old@example.org');
    await insertUser(ctx, 'taken@example.org');
    await assert.rejects(changeEmail(ctx, userID, 'taken@example.org'), refusedWith(403));
    await changeEmail(ctx, userID, 'new@example.org');
    assert.equal(Number((await userByEmail(ctx, 'new@example.org'))?.user_id), userID);
    assert.equal(await userByEmail(ctx, 'old@example.org'), undefined);
    const notice = mail.messages.at(-1);
    assert.equal(notice?.to, 'old@example.org');
    assert.match(notice.text, /new@example\.org/);
  });
});
