// Authenticator sync over real HTTP (docs/protocol.md#authenticator, docs/protocol.md#authenticator-data):
// the wrapped key, entities as secretstream blobs of JSON strings, diff paging with unique updatedAt,
// soft delete, the ifUpdatedAt compare-and-set (docs/decisions.md#api-server), and the quota and hourly
// write limit of one account.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  decryptBlobBytes,
  decryptBoxB64,
  encryptBlobB64,
  encryptBoxB64,
  generateKeyB64,
  toB64,
  utf8Bytes,
  utf8String,
} from '@ente/crypto';
import type { AuthenticatorKeyResponse, Entity, EntityDiffResponse } from '@ente/protocol';

import type { CallOptions } from '../testing/client.ts';
import { signUp, startSignUp, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const UNKNOWN_ID = '11111111-1111-4111-8111-111111111111';

describe('authenticator', () => {
  const { server, api } = suiteServer();

  const entityBody = async (authKey: string, uri: string) => encryptBlobB64(utf8Bytes(JSON.stringify(uri)), authKey);
  const wrappedKey = async (account: Account, authKey: string) => {
    const wrapped = await encryptBoxB64(authKey, account.keys.masterKey);
    return { encryptedKey: wrapped.encryptedData, header: wrapped.nonce };
  };

  /** A signed-up account with an authenticator key, as the first mobile client would create it. */
  async function accountWithKey(): Promise<Account & { authKey: string }> {
    const account = await signUp(api, server.mail, { srp: false });
    const authKey = await generateKeyB64();
    const created = await api.post('/authenticator/key', await wrappedKey(account, authKey));
    assert.equal(created.status, 200, created.text);
    return { ...account, authKey };
  }

  /** An account with a key and one entity of `uri`. */
  async function accountWithEntity(uri = 'otpauth://totp/a') {
    const account = await accountWithKey();
    const created = await api.post<Entity>('/authenticator/entity', await entityBody(account.authKey, uri));
    assert.equal(created.status, 200, created.text);
    return { account, entity: created.body };
  }

  const diff = async (sinceTime: number, limit = 10, options: CallOptions = {}) =>
    api.get<EntityDiffResponse>('/authenticator/entity/diff', { ...options, query: { sinceTime, limit } });
  const plaintextOf = async ({ encryptedData, header }: Entity, authKey: string): Promise<unknown> => {
    assert.ok(encryptedData !== null && header !== null, 'a live entity has data');
    return JSON.parse(utf8String(await decryptBlobBytes({ encryptedData, header }, authKey)));
  };

  describe('the key', () => {
    test('before it is created GET is 404 NOT_FOUND', async () => {
      await signUp(api, server.mail, { srp: false });
      const none = await api.get('/authenticator/key');
      assert.equal(none.status, 404);
      assert.deepEqual(none.body, { code: 'NOT_FOUND', message: '' });
    });

    test('before it is created an entity is 400 AUTH_KEY_NOT_CREATED', async () => {
      await signUp(api, server.mail, { srp: false });
      const answer = await api.post('/authenticator/entity', await entityBody(await generateKeyB64(), 'x'));
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'AUTH_KEY_NOT_CREATED');
    });

    test('it is stored and read back with the user ID and creation time', async () => {
      const account = await signUp(api, server.mail, { srp: false });
      const authKey = await generateKeyB64();
      assert.equal((await api.post('/authenticator/key', await wrappedKey(account, authKey))).status, 200);
      const key = await api.get<AuthenticatorKeyResponse>('/authenticator/key');
      assert.equal(key.body.userID, account.userID);
      assert.equal(typeof key.body.createdAt, 'number');
      const unwrapped = await decryptBoxB64(
        { encryptedData: key.body.encryptedKey, nonce: key.body.header },
        account.keys.masterKey,
      );
      assert.equal(unwrapped, authKey);
    });

    test('a second key is 409 CONFLICT "Key already exists"', async () => {
      const account = await accountWithKey();
      const again = await api.post('/authenticator/key', await wrappedKey(account, await generateKeyB64()));
      assert.equal(again.status, 409);
      assert.deepEqual(again.body, { code: 'CONFLICT', message: 'Key already exists' });
    });

    test('without key attributes creating it is 404', async () => {
      const { token } = await startSignUp(api, server.mail);
      const body = { encryptedKey: 'A'.repeat(64), header: 'A'.repeat(32) };
      assert.equal((await api.post('/authenticator/key', body, { token })).status, 404);
    });
  });

  describe('create and diff', () => {
    test('a created entity comes back in the diff and decrypts to its JSON-string URI', async () => {
      const uri = 'otpauth://totp/ACME:user@example.org?secret=JBSWY3DPEHPK3PXP&issuer=ACME';
      const { account, entity } = await accountWithEntity(uri);
      assert.match(entity.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(entity.userID, account.userID);
      assert.equal(entity.isDeleted, false);
      assert.equal(entity.createdAt, entity.updatedAt);
      const all = await diff(0, 2500);
      assert.equal(all.status, 200);
      assert.deepEqual(all.body.diff, [entity]);
      assert.equal(typeof all.body.timestamp, 'number');
      assert.equal(await plaintextOf(entity, account.authKey), uri);
    });

    test('the diff holds only entities updated strictly after sinceTime', async () => {
      const { entity } = await accountWithEntity();
      assert.deepEqual((await diff(entity.updatedAt)).body.diff, []);
      assert.deepEqual((await diff(entity.updatedAt - 1)).body.diff, [entity]);
    });

    test('sinceTime and limit are both required, and sinceTime is a non-negative number', async () => {
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
    });

    test('limit is 1 to 5000', async () => {
      await accountWithKey();
      for (const limit of [0, 5001, 1e12]) {
        const answer = await api.get('/authenticator/entity/diff', { query: { sinceTime: 0, limit } });
        assert.equal(answer.status, 400, String(limit));
        assert.match(answer.body.message ?? '', /limit must be between 1 and 5000/);
      }
      assert.equal((await diff(0, 5000)).status, 200);
    });

    test('concurrent writes get unique, increasing updatedAt, so small pages miss nothing', async () => {
      const account = await accountWithKey();
      const bodies = await Promise.all(
        Array.from({ length: 30 }, (_, i) => entityBody(account.authKey, `otpauth://totp/n${i}`)),
      );
      const created = await Promise.all(bodies.map((body) => api.post<Entity>('/authenticator/entity', body)));
      assert.ok(created.every((answer) => answer.status === 200));
      assert.equal(new Set(created.map((answer) => answer.body.updatedAt)).size, 30);

      const seen: string[] = [];
      let sinceTime = 0;
      for (;;) {
        const page = (await diff(sinceTime, 4)).body.diff;
        if (page.length === 0) break;
        const times = page.map((entity) => entity.updatedAt);
        assert.deepEqual(
          times,
          [...times].sort((a, b) => a - b),
          'ascending',
        );
        seen.push(...page.map((entity) => entity.id));
        sinceTime = Math.max(...times);
      }
      assert.deepEqual(seen.sort(), created.map((answer) => answer.body.id).sort());
    });
  });

  describe('update', () => {
    test('PUT overwrites the data and bumps updatedAt, keeping createdAt (empty 200)', async () => {
      const { account, entity } = await accountWithEntity();
      const put = await api.put('/authenticator/entity', {
        id: entity.id,
        ...(await entityBody(account.authKey, 'otpauth://totp/b')),
      });
      assert.equal(put.status, 200);
      assert.equal(put.text, '');
      const [updated] = (await diff(entity.updatedAt)).body.diff;
      assert.ok(updated);
      assert.ok(updated.updatedAt > entity.updatedAt);
      assert.equal(updated.createdAt, entity.createdAt);
      assert.equal(await plaintextOf(updated, account.authKey), 'otpauth://totp/b');
    });

    test('without ifUpdatedAt the last writer wins, as in museum', async () => {
      const { account, entity } = await accountWithEntity();
      for (const uri of ['otpauth://totp/b', 'otpauth://totp/c']) {
        const body = { id: entity.id, ...(await entityBody(account.authKey, uri)) };
        assert.equal((await api.put('/authenticator/entity', body)).status, 200);
      }
      const [updated] = (await diff(0)).body.diff;
      assert.ok(updated);
      assert.equal(await plaintextOf(updated, account.authKey), 'otpauth://totp/c');
    });

    test('PUT with the matching ifUpdatedAt succeeds', async () => {
      const { account, entity } = await accountWithEntity();
      const body = { id: entity.id, ...(await entityBody(account.authKey, 'b')), ifUpdatedAt: entity.updatedAt };
      assert.equal((await api.put('/authenticator/entity', body)).status, 200);
    });

    test('PUT with a stale ifUpdatedAt is 409 CONFLICT and changes nothing', async () => {
      const { account, entity } = await accountWithEntity();
      const body = { id: entity.id, ...(await entityBody(account.authKey, 'b')), ifUpdatedAt: entity.updatedAt - 1 };
      const stale = await api.put('/authenticator/entity', body);
      assert.equal(stale.status, 409);
      assert.equal(stale.body.code, 'CONFLICT');
      assert.deepEqual((await diff(0)).body.diff, [entity]);
    });

    test('PUT of an unknown ID is 404 NOT_FOUND', async () => {
      const account = await accountWithKey();
      const unknown = await api.put('/authenticator/entity', {
        id: UNKNOWN_ID,
        ...(await entityBody(account.authKey, 'x')),
      });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'NOT_FOUND');
    });
  });

  describe('delete', () => {
    test('DELETE is soft: the diff shows the entity deleted, without data, with a newer updatedAt', async () => {
      const { entity } = await accountWithEntity();
      const deleted = await api.delete('/authenticator/entity', { query: { id: entity.id } });
      assert.equal(deleted.status, 200);
      assert.equal(deleted.text, '');
      const [gone] = (await diff(0)).body.diff;
      assert.ok(gone);
      assert.equal(gone.isDeleted, true);
      assert.equal(gone.encryptedData, null);
      assert.equal(gone.header, null);
      assert.ok(gone.updatedAt > entity.updatedAt);
    });

    test('DELETE with the matching ifUpdatedAt succeeds', async () => {
      const { entity } = await accountWithEntity();
      const query = { id: entity.id, ifUpdatedAt: entity.updatedAt };
      assert.equal((await api.delete('/authenticator/entity', { query })).status, 200);
      assert.equal((await diff(0)).body.diff[0]?.isDeleted, true);
    });

    test('DELETE with a stale ifUpdatedAt is 409 and changes nothing', async () => {
      const { entity } = await accountWithEntity();
      const query = { id: entity.id, ifUpdatedAt: entity.updatedAt + 1 };
      assert.equal((await api.delete('/authenticator/entity', { query })).status, 409);
      assert.deepEqual((await diff(0)).body.diff, [entity]);
    });

    test('a second DELETE succeeds and changes nothing', async () => {
      const { entity } = await accountWithEntity();
      await api.delete('/authenticator/entity', { query: { id: entity.id } });
      const [deleted] = (await diff(0)).body.diff;
      assert.ok(deleted);
      assert.equal((await api.delete('/authenticator/entity', { query: { id: entity.id } })).status, 200);
      assert.deepEqual((await diff(deleted.updatedAt)).body.diff, []);
    });

    test('PUT after DELETE is 400 "entity is already deleted"', async () => {
      const { account, entity } = await accountWithEntity();
      await api.delete('/authenticator/entity', { query: { id: entity.id } });
      const put = await api.put('/authenticator/entity', {
        id: entity.id,
        ...(await entityBody(account.authKey, 'x')),
      });
      assert.deepEqual(put.body, { code: 'BAD_REQUEST', message: 'entity is already deleted' });
    });

    test('DELETE of an unknown ID succeeds', async () => {
      await accountWithKey();
      assert.equal((await api.delete('/authenticator/entity', { query: { id: UNKNOWN_ID } })).status, 200);
    });

    test('DELETE with a malformed or missing ID is 400', async () => {
      await accountWithKey();
      assert.equal((await api.delete('/authenticator/entity', { query: { id: 'nope' } })).status, 400);
      assert.equal((await api.delete('/authenticator/entity')).status, 400);
    });
  });

  test("users never see or touch each other's entities", async () => {
    const { account: alice, entity: aliceEntity } = await accountWithEntity('otpauth://totp/alice');
    const bob = await accountWithKey();
    assert.deepEqual((await diff(0)).body.diff, []);
    const put = await api.put('/authenticator/entity', { id: aliceEntity.id, ...(await entityBody(bob.authKey, 'x')) });
    assert.equal(put.status, 404);
    assert.equal((await api.delete('/authenticator/entity', { query: { id: aliceEntity.id } })).status, 200);
    assert.deepEqual((await diff(0, 10, { token: alice.token })).body.diff, [aliceEntity]);
  });
});

describe('the quota of one account (docs/protocol.md#authenticator)', () => {
  const most = 4;
  const { server, api } = suiteServer({
    env: { AUTHENTICATOR_MAX_ENTITIES: String(most), AUTHENTICATOR_MAX_BYTES: '65536' },
  });
  const header = toB64(new Uint8Array(24)); // 32 characters
  /** A create or update body of exactly `bytes` counted bytes (encrypted data + header, as b64 text). */
  const sized = (bytes: number) => ({ encryptedData: 'A'.repeat(bytes - header.length), header });

  async function accountWithKey(): Promise<Account> {
    const account = await signUp(api, server.mail, { srp: false });
    const wrapped = await encryptBoxB64(await generateKeyB64(), account.keys.masterKey);
    const created = await api.post('/authenticator/key', {
      encryptedKey: wrapped.encryptedData,
      header: wrapped.nonce,
    });
    assert.equal(created.status, 200, created.text);
    return account;
  }
  const liveRows = async (account: Account) =>
    server.sql(`SELECT id FROM authenticator_entity WHERE user_id = ${account.userID} AND NOT is_deleted`);
  const create = (bytes = 100) => api.post<Entity>('/authenticator/entity', sized(bytes));

  test('past the most entities: 403 ENTITY_LIMIT_REACHED and nothing stored; a deletion frees a place', async () => {
    const account = await accountWithKey();
    const created: Entity[] = [];
    for (let i = 0; i < most; i++) {
      const answer = await create();
      assert.equal(answer.status, 200, answer.text);
      created.push(answer.body);
    }
    const refused = await create();
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'ENTITY_LIMIT_REACHED');
    assert.equal((await liveRows(account)).length, most);
    assert.equal(
      (await server.sql(`SELECT id FROM authenticator_entity WHERE user_id = ${account.userID}`)).length,
      most,
    );

    assert.equal((await api.delete('/authenticator/entity', { query: { id: created[0]?.id } })).status, 200);
    assert.equal((await create()).status, 200, 'the deleted entity no longer counts');
    assert.equal((await create()).status, 403);
    // Updating one of them is no new entity.
    assert.equal((await api.put('/authenticator/entity', { id: created[1]?.id, ...sized(200) })).status, 200);
  });

  test('past the most bytes: 403 ENTITY_LIMIT_REACHED and nothing stored or changed; only growth counts', async () => {
    const account = await accountWithKey();
    const first = await create(30_000);
    const second = await create(30_000);
    assert.equal(first.status, 200, first.text);
    assert.equal(second.status, 200, second.text);
    const tooBig = await create(5_540); // 65,540 bytes in all (b64 comes in fours)
    assert.equal(tooBig.status, 403);
    assert.equal(tooBig.body.code, 'ENTITY_LIMIT_REACHED');
    assert.equal((await liveRows(account)).length, 2);
    assert.equal((await create(5_536)).status, 200, 'exactly at the quota is allowed');

    // An update that grows past the quota changes nothing; one that keeps or shrinks its size passes.
    const grown = await api.put('/authenticator/entity', { id: first.body.id, ...sized(30_004) });
    assert.equal(grown.status, 403);
    assert.equal(grown.body.code, 'ENTITY_LIMIT_REACHED');
    const [stored] = await server.sql(
      `SELECT octet_length(encrypted_data) AS length FROM authenticator_entity WHERE id = '${first.body.id}'`,
    );
    assert.deepEqual(stored, { length: 30_000 - header.length });
    assert.equal((await api.put('/authenticator/entity', { id: first.body.id, ...sized(30_000) })).status, 200);
    assert.equal((await api.put('/authenticator/entity', { id: first.body.id, ...sized(10_000) })).status, 200);
    assert.equal((await create(20_000)).status, 200, 'the bytes the update gave up count again');

    await api.delete('/authenticator/entity', { query: { id: second.body.id } });
    assert.equal((await api.put('/authenticator/entity', { id: first.body.id, ...sized(30_000) })).status, 200);
  });

  test('concurrent creates at the limit: exactly the quota is stored', async () => {
    const account = await accountWithKey();
    const answers = await Promise.all(Array.from({ length: 8 }, () => create()));
    assert.equal(answers.filter((answer) => answer.status === 200).length, most);
    assert.equal(answers.filter((answer) => answer.body.code === 'ENTITY_LIMIT_REACHED').length, 8 - most);
    assert.equal((await liveRows(account)).length, most);
  });
});

describe('the hourly limit on writes of one account', () => {
  // Several client addresses through a trusted proxy: the limit is the account's, not an address's.
  const { server, api } = suiteServer({ env: { AUTHENTICATOR_WRITES_PER_HOUR: '5', TRUST_PROXY: '127.0.0.1' } });
  const body = { encryptedData: toB64(new Uint8Array(40)), header: toB64(new Uint8Array(24)) };
  const from = (i: number) => ({ headers: { 'X-Forwarded-For': `198.51.100.${i}` } });

  async function accountWithKey(): Promise<Account> {
    const account = await signUp(api, server.mail, { srp: false });
    const wrapped = await encryptBoxB64(await generateKeyB64(), account.keys.masterKey);
    assert.equal(
      (await api.post('/authenticator/key', { encryptedKey: wrapped.encryptedData, header: wrapped.nonce })).status,
      200,
    );
    return account;
  }

  test('creates and updates from any address count together; past the limit 429, then the next hour', async () => {
    server.clock.advance(60 * 60_000_000);
    const account = await accountWithKey();
    const created = await api.post<Entity>('/authenticator/entity', body, from(1));
    assert.equal(created.status, 200);
    for (let i = 2; i <= 5; i++) {
      const write =
        i % 2 === 0
          ? await api.put('/authenticator/entity', { id: created.body.id, ...body }, from(i))
          : await api.post('/authenticator/entity', body, from(i));
      assert.equal(write.status, 200, `write ${i}`);
    }
    const limited = await api.post('/authenticator/entity', body, from(6));
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { error: 'Rate limit breached, try later' });
    assert.equal((await api.put('/authenticator/entity', { id: created.body.id, ...body }, from(7))).status, 429);
    assert.equal((await server.sql(`SELECT id FROM authenticator_entity WHERE user_id = ${account.userID}`)).length, 3);
    // Reading and deleting are not writes it limits; another account has its own budget.
    assert.equal((await api.get('/authenticator/entity/diff', { query: { sinceTime: 0, limit: 10 } })).status, 200);
    assert.equal((await api.delete('/authenticator/entity', { query: { id: created.body.id } })).status, 200);
    await accountWithKey();
    assert.equal((await api.post('/authenticator/entity', body, from(6))).status, 200);

    api.token = account.token;
    server.clock.advance(60 * 60_000_000);
    assert.equal((await api.post('/authenticator/entity', body, from(8))).status, 200);
  });
});
