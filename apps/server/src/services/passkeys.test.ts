// The passkey rules without HTTP: the limit on live passkeys holds against concurrent registrations (the
// count and the insert in one transaction, under a lock on the user's row), a registration begun under the
// limit is refused once it is reached, and one user cannot touch another's passkeys.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { limits, registrationCredentialSchema } from '@ente/protocol';

import { HttpError } from '../http/errors.ts';
import { parseInput } from '../http/validation.ts';
import { SoftAuthenticator } from '../testing/authenticator.ts';
import { insertUser, suiteContext } from '../testing/context.ts';
import type { Context } from './context.ts';
import { beginRegistration, deletePasskey, finishRegistration, listPasskeys, renamePasskey } from './passkeys.ts';

describe('passkey services', () => {
  const testContext = suiteContext();
  const authenticator = new SoftAuthenticator();
  let users = 0;
  const newUser = (ctx: Context) => insertUser(ctx, `passkeys-${++users}@example.org`);

  /** A begun registration and the authenticator's answer to it, not yet finished. */
  async function begun(ctx: Context, userID: number, friendlyName = 'key') {
    const { options, sessionID } = await beginRegistration(ctx, userID);
    const body = parseInput(registrationCredentialSchema, authenticator.register(options.publicKey).body, 'body');
    return () => finishRegistration(ctx, userID, { sessionID, friendlyName }, body);
  }

  const isMaxPasskeysReached = (error: unknown) =>
    error instanceof HttpError && error.status === 409 && error.body.code === 'MAX_PASSKEYS_REACHED';

  test('two concurrent registrations cannot pass the limit together', async () => {
    const { ctx } = testContext();
    const userID = await newUser(ctx);
    for (let i = 1; i < limits.maxPasskeys; i++) await (await begun(ctx, userID, `key ${i}`))();
    const [first, second] = [await begun(ctx, userID, 'first'), await begun(ctx, userID, 'second')];
    const outcomes = await Promise.allSettled([first(), second()]);
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1);
    const refusal: unknown = outcomes.find((outcome) => outcome.status === 'rejected')?.reason;
    assert.ok(isMaxPasskeysReached(refusal), String(refusal));
    assert.equal((await listPasskeys(ctx, userID)).length, limits.maxPasskeys);
  });

  test('many concurrent registrations from few: exactly the limit is stored', async () => {
    const { ctx } = testContext();
    const userID = await newUser(ctx);
    const pending = [];
    for (let i = 0; i < limits.maxPasskeys + 3; i++) pending.push(await begun(ctx, userID, `key ${i}`));
    const outcomes = await Promise.allSettled(pending.map((finish) => finish()));
    assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, limits.maxPasskeys);
    for (const outcome of outcomes) if (outcome.status === 'rejected') assert.ok(isMaxPasskeysReached(outcome.reason));
    assert.equal((await listPasskeys(ctx, userID)).length, limits.maxPasskeys);
  });

  test('a registration begun under the limit is refused once the limit is reached; a deletion makes room', async () => {
    const { ctx } = testContext();
    const userID = await newUser(ctx);
    const late = await begun(ctx, userID, 'late');
    for (let i = 0; i < limits.maxPasskeys; i++) await (await begun(ctx, userID, `key ${i}`))();
    await assert.rejects(late(), isMaxPasskeysReached);
    await assert.rejects(beginRegistration(ctx, userID), isMaxPasskeysReached);
    const [oldest] = await listPasskeys(ctx, userID);
    await deletePasskey(ctx, userID, oldest?.id ?? '');
    await (
      await begun(ctx, userID, 'after the deletion')
    )();
    assert.equal((await listPasskeys(ctx, userID)).length, limits.maxPasskeys);
  });

  test("another user's passkey can be neither renamed nor deleted (404)", async () => {
    const { ctx } = testContext();
    const owner = await newUser(ctx);
    const other = await newUser(ctx);
    await (
      await begun(ctx, owner, 'mine')
    )();
    const [passkey] = await listPasskeys(ctx, owner);
    const notFound = (error: unknown) => error instanceof HttpError && error.status === 404;
    await assert.rejects(renamePasskey(ctx, other, passkey?.id ?? '', 'theirs'), notFound);
    await assert.rejects(deletePasskey(ctx, other, passkey?.id ?? ''), notFound);
    await renamePasskey(ctx, owner, passkey?.id ?? '', 'renamed');
    assert.deepEqual(
      (await listPasskeys(ctx, owner)).map((row) => row.friendly_name),
      ['renamed'],
    );
  });
});
