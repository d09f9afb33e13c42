// The two-factor rules without HTTP: setup needs key attributes, enabling needs a right code for a set-up
// secret, and disabling turns it off again.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { HttpError } from '../http/errors.ts';
import { base32Decode, totpAt } from '../lib/totp.ts';
import { insertUser, insertUserWithKeyAttributes, suiteContext } from '../testing/context.ts';
import { disableTwoFactor, enableTwoFactor, setUpTwoFactor, twoFactorStatusOf } from './two-factor.ts';

const refusedWith = (status: number) => (error: unknown) => error instanceof HttpError && error.status === status;

describe('two-factor services', () => {
  const testContext = suiteContext();

  const wrapped = { encryptedTwoFactorSecret: 'AAAA', twoFactorSecretDecryptionNonce: 'BBBB' };

  test('setup needs key attributes (404)', async () => {
    const { ctx } = testContext();
    const userID = await insertUser(ctx, 'no-keys@example.org');
    await assert.rejects(setUpTwoFactor(ctx, userID), refusedWith(404));
  });

  test('a wrong code does not enable it (401); the right one does; disabling turns it off', async () => {
    const { ctx, clock } = testContext();
    const userID = await insertUserWithKeyAttributes(ctx, 'totp@example.org');
    const { secretCode, qrCode } = await setUpTwoFactor(ctx, userID);
    assert.ok(Buffer.from(qrCode, 'base64').subarray(1, 4).equals(Buffer.from('PNG')));
    const right = totpAt(base32Decode(secretCode), clock.nowMicros() / 1_000_000);
    const wrong = right === '000000' ? '111111' : '000000';
    await assert.rejects(enableTwoFactor(ctx, userID, { code: wrong, ...wrapped }), refusedWith(401));
    assert.equal(await twoFactorStatusOf(ctx, userID), false);
    await enableTwoFactor(ctx, userID, { code: right, ...wrapped });
    assert.equal(await twoFactorStatusOf(ctx, userID), true);
    // The set-up secret is used up.
    await assert.rejects(enableTwoFactor(ctx, userID, { code: right, ...wrapped }), refusedWith(401));
    await disableTwoFactor(ctx, userID);
    assert.equal(await twoFactorStatusOf(ctx, userID), false);
  });
});
