// Authenticator sync over real HTTP (docs/protocol.md#authenticator, docs/protocol.md#authenticator-data):
// the wrapped key, entities as secretstream blobs of JSON strings, diff paging with unique updatedAt,
// soft delete, and the ifUpdatedAt compare-and-set (docs/decisions.md#api-server).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  decryptBlobBytes,
  decryptBoxB64,
  encryptBlobB64,
  encryptBoxB64,
  generateKeyB64,
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
