// Authenticator sync over real HTTP (protocol §6.7, §8.1, issue 3 §6): the wrapped key, entities as
// secretstream blobs of JSON strings, diff paging with unique updatedAt, soft delete, and the
// ifUpdatedAt compare-and-set.
import {
  decryptBlobBytes,
  decryptBoxB64,
  encryptBlobB64,
  encryptBoxB64,
  generateKeyB64,
  utf8Bytes,
  utf8String,
} from '@ente/crypto';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { signUp, uniqueEmail, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

describe('authenticator', () => {
  const { server, api } = suiteServer();

  /** A signed-up account with an authenticator key, as the first mobile client would create it. */
  async function accountWithKey(): Promise<Account & { authKey: string }> {
    const account = await signUp(api, server.mail, { srp: false });
    const authKey = await generateKeyB64();
    const wrapped = await encryptBoxB64(authKey, account.keys.masterKey);
    const created = await api.post('/authenticator/key', {
      encryptedKey: wrapped.encryptedData,
      header: wrapped.nonce,
    });
    assert.equal(created.status, 200, created.text);
    return { ...account, authKey };
  }

  const entityBody = async (authKey: string, uri: string) => encryptBlobB64(utf8Bytes(JSON.stringify(uri)), authKey);

  test('the key: 404 NOT_FOUND before, created once (409 CONFLICT after), read back', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const none = await api.get('/authenticator/key');
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { code: 'NOT_FOUND', message: '' });
    const noKeyYet = await api.post(
      '/authenticator/entity',
      await entityBody(await generateKeyB64(), 'otpauth://totp/x'),
    );
    assert.equal(noKeyYet.status, 400);
    assert.equal(noKeyYet.body.code, 'AUTH_KEY_NOT_CREATED');

    const authKey = await generateKeyB64();
    const wrapped = await encryptBoxB64(authKey, account.keys.masterKey);
    const body = { encryptedKey: wrapped.encryptedData, header: wrapped.nonce };
    assert.equal((await api.post('/authenticator/key', body)).status, 200);
    const again = await api.post('/authenticator/key', body);
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, { code: 'CONFLICT', message: 'Key already exists' });
    const key = await api.get('/authenticator/key');
    assert.equal(key.body.userID, account.userID);
    assert.equal(typeof key.body.createdAt, 'number');
    assert.equal(
      await decryptBoxB64({ encryptedData: key.body.encryptedKey, nonce: key.body.header }, account.keys.masterKey),
      authKey,
    );

    const email = uniqueEmail();
    await api.post('/users/ott', { email, purpose: 'signup' });
    const bare = await api.post('/users/verify-email', { email, ott: server.mail.lastCode(email) });
    assert.equal(
      (await api.post('/authenticator/key', body, { token: bare.body.token })).status,
      404,
      'no key attributes',
    );
  });

  test('create, read by diff, decrypt the JSON-string plaintext', async () => {
    const account = await accountWithKey();
    const uri = 'otpauth://totp/ACME:user@example.org?secret=JBSWY3DPEHPK3PXP&issuer=ACME';
    const created = await api.post('/authenticator/entity', await entityBody(account.authKey, uri));
    assert.equal(created.status, 200, created.text);
    assert.match(created.body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(created.body.userID, account.userID);
    assert.equal(created.body.isDeleted, false);
    assert.equal(created.body.createdAt, created.body.updatedAt);
    const diff = await api.get('/authenticator/entity/diff', { query: { sinceTime: 0, limit: 2500 } });
    assert.equal(diff.status, 200);
    assert.deepEqual(diff.body.diff, [created.body]);
    assert.equal(typeof diff.body.timestamp, 'number');
    const plaintext = await decryptBlobBytes(diff.body.diff[0], account.authKey);
    assert.equal(JSON.parse(utf8String(plaintext)), uri);
    const since = await api.get('/authenticator/entity/diff', {
      query: { sinceTime: created.body.updatedAt, limit: 10 },
    });
    assert.deepEqual(since.body.diff, [], 'strictly greater than sinceTime');
  });

  test('diff parameters: both required, limit 1..5000', async () => {
    await accountWithKey();
    const queries: Record<string, string | number>[] = [
      { limit: 10 },
      { sinceTime: 0 },
      { sinceTime: -1, limit: 10 },
      { sinceTime: 'x', limit: 10 },
    ];
    for (const query of queries) {
      const answer = await api.get('/authenticator/entity/diff', { query });
      assert.equal(answer.status, 400, JSON.stringify(query));
      assert.equal(answer.body.code, 'BAD_REQUEST');
    }
    for (const limit of [0, 5001, 1e12]) {
      const answer = await api.get('/authenticator/entity/diff', { query: { sinceTime: 0, limit } });
      assert.equal(answer.status, 400);
      assert.match(answer.body.message, /limit must be between 1 and 5000/);
    }
    assert.equal((await api.get('/authenticator/entity/diff', { query: { sinceTime: 0, limit: 5000 } })).status, 200);
  });

  test('concurrent writes get unique, increasing updatedAt, so small pages miss nothing', async () => {
    const account = await accountWithKey();
    const bodies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => entityBody(account.authKey, `otpauth://totp/n${i}`)),
    );
    const created = await Promise.all(bodies.map((body) => api.post('/authenticator/entity', body)));
    assert.ok(created.every((answer) => answer.status === 200));
    const times = created.map((answer) => answer.body.updatedAt as number);
    assert.equal(new Set(times).size, 30);

    const seen: string[] = [];
    let sinceTime = 0;
    for (;;) {
      const page = await api.get('/authenticator/entity/diff', { query: { sinceTime, limit: 4 } });
      if (page.body.diff.length === 0) break;
      const pageTimes = page.body.diff.map((entity: { updatedAt: number }) => entity.updatedAt);
      assert.deepEqual(
        pageTimes,
        [...pageTimes].sort((a, b) => a - b),
        'ascending',
      );
      seen.push(...page.body.diff.map((entity: { id: string }) => entity.id));
      sinceTime = Math.max(...pageTimes);
    }
    assert.deepEqual(seen.sort(), created.map((answer) => answer.body.id as string).sort());
  });

  test('update: overwrites and bumps updatedAt; 404 unknown; ifUpdatedAt mismatch is 409 and changes nothing', async () => {
    const account = await accountWithKey();
    const created = (await api.post('/authenticator/entity', await entityBody(account.authKey, 'otpauth://totp/a')))
      .body;
    const replacement = await entityBody(account.authKey, 'otpauth://totp/b');
    const stale = await api.put('/authenticator/entity', {
      id: created.id,
      ...replacement,
      ifUpdatedAt: created.updatedAt - 1,
    });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'CONFLICT');
    const unchanged = await api.get('/authenticator/entity/diff', { query: { sinceTime: 0, limit: 10 } });
    assert.deepEqual(unchanged.body.diff, [created]);

    const matched = await api.put('/authenticator/entity', {
      id: created.id,
      ...replacement,
      ifUpdatedAt: created.updatedAt,
    });
    assert.equal(matched.status, 200);
    assert.equal(matched.text, '');
    const plain = await api.put('/authenticator/entity', {
      id: created.id,
      ...(await entityBody(account.authKey, 'otpauth://totp/c')),
    });
    assert.equal(plain.status, 200, 'without ifUpdatedAt the last writer wins, as in museum');
    const diff = await api.get('/authenticator/entity/diff', { query: { sinceTime: created.updatedAt, limit: 10 } });
    assert.equal(diff.body.diff.length, 1);
    assert.ok(diff.body.diff[0].updatedAt > created.updatedAt);
    assert.equal(diff.body.diff[0].createdAt, created.createdAt);
    assert.equal(
      JSON.parse(utf8String(await decryptBlobBytes(diff.body.diff[0], account.authKey))),
      'otpauth://totp/c',
    );

    const unknown = await api.put('/authenticator/entity', {
      id: '11111111-1111-4111-8111-111111111111',
      ...replacement,
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'NOT_FOUND');
  });

  test('delete: soft, visible in the diff, idempotent; PUT after it is 400; bad id 400', async () => {
    const account = await accountWithKey();
    const created = (await api.post('/authenticator/entity', await entityBody(account.authKey, 'otpauth://totp/d')))
      .body;
    const stale = await api.delete('/authenticator/entity', {
      query: { id: created.id, ifUpdatedAt: created.updatedAt + 1 },
    });
    assert.equal(stale.status, 409);
    const deleted = await api.delete('/authenticator/entity', {
      query: { id: created.id, ifUpdatedAt: created.updatedAt },
    });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.text, '');
    const diff = await api.get('/authenticator/entity/diff', { query: { sinceTime: 0, limit: 10 } });
    const [entity] = diff.body.diff;
    assert.equal(entity.isDeleted, true);
    assert.equal(entity.encryptedData, null);
    assert.equal(entity.header, null);
    assert.ok(entity.updatedAt > created.updatedAt);
    assert.equal((await api.delete('/authenticator/entity', { query: { id: created.id } })).status, 200);
    const after = await api.get('/authenticator/entity/diff', { query: { sinceTime: entity.updatedAt, limit: 10 } });
    assert.deepEqual(after.body.diff, [], 'a second delete changes nothing');
    const put = await api.put('/authenticator/entity', { id: created.id, ...(await entityBody(account.authKey, 'x')) });
    assert.deepEqual(put.body, { code: 'BAD_REQUEST', message: 'entity is already deleted' });
    assert.equal(
      (await api.delete('/authenticator/entity', { query: { id: '11111111-1111-4111-8111-111111111111' } })).status,
      200,
    );
    assert.equal((await api.delete('/authenticator/entity', { query: { id: 'nope' } })).status, 400);
    assert.equal((await api.delete('/authenticator/entity')).status, 400);
  });

  test("users never see or touch each other's entities", async () => {
    const alice = await accountWithKey();
    const aliceEntity = (
      await api.post('/authenticator/entity', await entityBody(alice.authKey, 'otpauth://totp/alice'))
    ).body;
    const bob = await accountWithKey();
    const bobDiff = await api.get('/authenticator/entity/diff', { query: { sinceTime: 0, limit: 10 } });
    assert.deepEqual(bobDiff.body.diff, []);
    const put = await api.put('/authenticator/entity', { id: aliceEntity.id, ...(await entityBody(bob.authKey, 'x')) });
    assert.equal(put.status, 404);
    assert.equal((await api.delete('/authenticator/entity', { query: { id: aliceEntity.id } })).status, 200);
    const aliceDiff = await api.get('/authenticator/entity/diff', {
      query: { sinceTime: 0, limit: 10 },
      token: alice.token,
    });
    assert.deepEqual(aliceDiff.body.diff, [aliceEntity]);
  });
});
