// User entities over real HTTP (docs/protocol.md#user-entities), as Ente's photos clients use them: the key of a
// type (404 until made, once per type), entities in museum's shapes and ids, the tombstone of a delete, the diff
// by updatedAt a page at a time, another account's ids as unknown, the refusals (400 with a message) and the
// quota. Also GET /files/data/fetch, museum's "no such data" for a file the caller may read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { decryptBlobBytes, encryptBlobB64, encryptBoxB64, generateKeyB64, utf8Bytes, utf8String } from '@ente/crypto';
import { limits, type UserEntity, type UserEntityDiffResponse, type UserEntityKey } from '@ente/protocol';

import type { ApiClient } from '../testing/client.ts';
import { signUp, type Account } from '../testing/flows.ts';
import { PhotosClient } from '../testing/photos-client.ts';
import { suiteServer } from '../testing/server.ts';

const photosPackage = 'io.ente.photos.web';

interface EntityAccount {
  account: Account;
  client: ApiClient;
  entityKey: string;
}

/** A photos account with the `location` key, made as Ente's web app makes it (a new key boxed with the masterKey). */
async function withLocationKey(client: ApiClient, account: Account): Promise<EntityAccount> {
  const entityKey = await generateKeyB64();
  const boxed = await encryptBoxB64(entityKey, account.keys.masterKey);
  const created = await client.post('/user-entity/key', {
    type: 'location',
    encryptedKey: boxed.encryptedData,
    header: boxed.nonce,
  });
  assert.equal(created.status, 200, created.text);
  assert.equal(created.text, '');
  return { account, client, entityKey };
}

async function sealed(entityKey: string, value: unknown) {
  const { encryptedData, header } = await encryptBlobB64(utf8Bytes(JSON.stringify(value)), entityKey);
  return { encryptedData, header };
}

async function create(owner: EntityAccount, value: unknown, type = 'location'): Promise<UserEntity> {
  const answer = await owner.client.post<UserEntity>('/user-entity/entity', {
    type,
    ...(await sealed(owner.entityKey, value)),
  });
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
}

const diff = (client: ApiClient, sinceTime: number, limit = 500, type = 'location') =>
  client.get<UserEntityDiffResponse>('/user-entity/entity/diff', { query: { type, sinceTime, limit } });

/** Every change after `sinceTime`, a page of `limit` at a time until an empty page, as Ente's web app pulls. */
async function pullAll(client: ApiClient, limit: number, sinceTime = 0): Promise<UserEntity[]> {
  const all: UserEntity[] = [];
  for (let since = sinceTime; ;) {
    const page = await diff(client, since, limit);
    assert.equal(page.status, 200, page.text);
    assert.ok(page.body.diff.length <= limit);
    if (page.body.diff.length === 0) return all;
    all.push(...page.body.diff);
    since = page.body.diff.at(-1)?.updatedAt ?? since;
  }
}

describe('user entities', () => {
  const { server, api } = suiteServer();
  const photos = () => api.as(photosPackage);

  async function newAccount(): Promise<{ client: ApiClient; account: Account }> {
    const client = photos();
    const account = await signUp(client, server.mail, { srp: false });
    return { client, account };
  }

  test('the key: 404 until made, then in museum’s shape; the same key again is 200, another one 409', async () => {
    const { client, account } = await newAccount();
    const before = await client.get('/user-entity/key', { query: { type: 'location' } });
    assert.equal(before.status, 404, before.text);
    assert.deepEqual(before.body, { code: 'NOT_FOUND', message: '' });

    const entityKey = await generateKeyB64();
    const boxed = await encryptBoxB64(entityKey, account.keys.masterKey);
    const body = { type: 'location', encryptedKey: boxed.encryptedData, header: boxed.nonce };
    assert.equal((await client.post('/user-entity/key', body)).status, 200);
    const key = await client.get<UserEntityKey>('/user-entity/key', { query: { type: 'location' } });
    assert.equal(key.status, 200, key.text);
    assert.deepEqual(Object.keys(key.body).sort(), ['createdAt', 'encryptedKey', 'header', 'type', 'userID']);
    assert.deepEqual(
      { ...key.body, createdAt: 0 },
      {
        userID: account.userID,
        type: 'location',
        encryptedKey: boxed.encryptedData,
        header: boxed.nonce,
        createdAt: 0,
      },
    );
    assert.ok(key.body.createdAt > 0);

    const retried = await client.post('/user-entity/key', body);
    assert.equal(retried.status, 200, 'a retry of the same key is a success');
    const other = await encryptBoxB64(await generateKeyB64(), account.keys.masterKey);
    const second = await client.post('/user-entity/key', {
      ...body,
      encryptedKey: other.encryptedData,
      header: other.nonce,
    });
    assert.equal(second.status, 409, second.text);
    assert.deepEqual(second.body, { code: 'ALREADY_EXISTS', message: 'Key already exists' });
    const still = await client.get<UserEntityKey>('/user-entity/key', { query: { type: 'location' } });
    assert.equal(still.body.encryptedKey, boxed.encryptedData, 'the first key stays');
    // One key per type: another type has none yet.
    assert.equal((await client.get('/user-entity/key', { query: { type: 'cgroup' } })).status, 404);
  });

  test('an entity round-trips in museum’s shapes: create, update, delete (a tombstone in the diff)', async () => {
    const { client, account } = await newAccount();
    const owner = await withLocationKey(client, account);
    const tag = { name: 'Home', radius: 2, centerPoint: { latitude: 52.37, longitude: 4.9 } };
    const created = await create(owner, tag);
    assert.deepEqual(Object.keys(created).sort(), [
      'createdAt',
      'encryptedData',
      'header',
      'id',
      'isDeleted',
      'type',
      'updatedAt',
      'userID',
    ]);
    assert.match(created.id, /^location_[0-9A-Za-z]{22}$/);
    assert.equal(created.userID, account.userID);
    assert.equal(created.type, 'location');
    assert.equal(created.isDeleted, false);
    assert.equal(created.createdAt, created.updatedAt);

    const open = async ({ encryptedData, header }: UserEntity) => {
      assert.ok(encryptedData !== null && header !== null);
      const bytes = await decryptBlobBytes({ encryptedData, header }, owner.entityKey);
      return JSON.parse(utf8String(bytes)) as unknown;
    };
    assert.deepEqual(await open(created), tag);

    const moved = { ...tag, radius: 5 };
    const updated = await client.put<UserEntity>('/user-entity/entity', {
      id: created.id,
      type: 'location',
      ...(await sealed(owner.entityKey, moved)),
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.id, created.id);
    assert.equal(updated.body.createdAt, created.createdAt);
    assert.ok(updated.body.updatedAt > created.updatedAt);
    const afterUpdate = await diff(client, 0);
    assert.deepEqual(afterUpdate.body, { diff: [updated.body] });
    assert.deepEqual(await open(afterUpdate.body.diff[0] as UserEntity), moved);

    // As in museum, the entity keeps its type whatever a PUT says.
    const mislabelled = await client.put<UserEntity>('/user-entity/entity', {
      id: created.id,
      type: 'cgroup',
      ...(await sealed(owner.entityKey, moved)),
    });
    assert.equal(mislabelled.status, 200, mislabelled.text);
    assert.equal(mislabelled.body.type, 'location');

    const deleted = await client.delete('/user-entity/entity', { query: { id: created.id } });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.text, '');
    const tombstones = await diff(client, mislabelled.body.updatedAt);
    assert.equal(tombstones.body.diff.length, 1);
    const [tombstone] = tombstones.body.diff;
    assert.deepEqual(
      { ...tombstone, updatedAt: 0 },
      { ...updated.body, encryptedData: null, header: null, isDeleted: true, updatedAt: 0 },
    );
    assert.ok((tombstone?.updatedAt ?? 0) > mislabelled.body.updatedAt);

    assert.equal(
      (await client.delete('/user-entity/entity', { query: { id: created.id } })).status,
      200,
      'again: no change',
    );
    assert.deepEqual((await diff(client, tombstone?.updatedAt ?? 0)).body, { diff: [] });
    const again = await client.put('/user-entity/entity', {
      id: created.id,
      type: 'location',
      ...(await sealed(owner.entityKey, tag)),
    });
    assert.equal(again.status, 400, again.text);
    assert.deepEqual(again.body, { code: 'BAD_REQUEST', message: 'entity is already deleted' });
  });

  test('the diff: oldest change first, page by page by updatedAt, each change once, one type at a time', async () => {
    const { client, account } = await newAccount();
    const owner = await withLocationKey(client, account);
    const made: UserEntity[] = [];
    for (let i = 0; i < 7; i++) made.push(await create(owner, { name: `tag ${String(i)}` }));
    const edited = await client.put<UserEntity>('/user-entity/entity', {
      id: made[1]?.id,
      type: 'location',
      ...(await sealed(owner.entityKey, { name: 'edited' })),
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal((await client.delete('/user-entity/entity', { query: { id: made[3]?.id } })).status, 200);

    const pulled = await pullAll(client, 2);
    const times = pulled.map((entity) => entity.updatedAt);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
    assert.equal(new Set(times).size, times.length);
    const expected = [0, 2, 4, 5, 6, 1, 3].map((i) => made[i]?.id);
    assert.deepEqual(
      pulled.map((entity) => entity.id),
      expected,
    );
    assert.deepEqual(pulled.at(-1)?.isDeleted, true);
    // A later pull from the last time sees only what changed since.
    const last = pulled.at(-1)?.updatedAt ?? 0;
    const newer = await create(owner, { name: 'newer' });
    assert.deepEqual(await pullAll(client, 2, last), [newer]);

    // The diff is per type: a cgroup of the same account is not in the location diff, and the other way round.
    const cgroupKey = await encryptBoxB64(await generateKeyB64(), account.keys.masterKey);
    await client.post('/user-entity/key', {
      type: 'cgroup',
      encryptedKey: cgroupKey.encryptedData,
      header: cgroupKey.nonce,
    });
    const person = await create(owner, { name: 'A person' }, 'cgroup');
    assert.match(person.id, /^cgroup_[0-9A-Za-z]{22}$/);
    assert.deepEqual((await diff(client, newer.updatedAt)).body, { diff: [] });
    assert.deepEqual((await diff(client, 0, 10, 'cgroup')).body, { diff: [person] });
  });

  test("another account's entity is not found: 404 to PUT and DELETE, absent from its diff, unchanged", async () => {
    const victim = await withLocationKey(...(Object.values(await newAccount()) as [ApiClient, Account]));
    const attacker = await withLocationKey(...(Object.values(await newAccount()) as [ApiClient, Account]));
    const theirs = await create(victim, { name: 'Their home' });
    await create(attacker, { name: 'Mine' });

    const put = await attacker.client.put('/user-entity/entity', {
      id: theirs.id,
      type: 'location',
      ...(await sealed(attacker.entityKey, { name: 'taken' })),
    });
    assert.equal(put.status, 404, put.text);
    assert.deepEqual(put.body, { code: 'NOT_FOUND', message: 'no such entity' });
    const deleted = await attacker.client.delete('/user-entity/entity', { query: { id: theirs.id } });
    assert.equal(deleted.status, 404, deleted.text);
    assert.ok(!(await pullAll(attacker.client, 500)).some((entity) => entity.id === theirs.id));
    assert.deepEqual(await pullAll(victim.client, 500), [theirs]);

    // Taking their id for a new entity of one's own neither fails on theirs nor touches it.
    const squat = await attacker.client.post<UserEntity>('/user-entity/entity', {
      type: 'location',
      id: theirs.id,
      ...(await sealed(attacker.entityKey, { name: 'same id' })),
    });
    assert.equal(squat.status, 200, squat.text);
    assert.equal(squat.body.userID, attacker.account.userID);
    assert.deepEqual(await pullAll(victim.client, 500), [theirs]);
  });

  test('refusals: a type outside the list, bad ids and sizes, no key, smart album ids are 400 with a message', async () => {
    const { client, account } = await newAccount();
    const owner = await withLocationKey(client, account);
    const data = await sealed(owner.entityKey, { name: 'x' });
    const refused = async (
      answer: Promise<{ status: number; body: { code?: string; message?: string } }>,
      pattern: RegExp,
    ) => {
      const { status, body } = await answer;
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.code, 'BAD_REQUEST');
      assert.match(body.message ?? '', pattern);
    };
    const boxed = await encryptBoxB64(await generateKeyB64(), account.keys.masterKey);
    const typeRule = /^type: must be one of location, person, cgroup, smart_album, memory, contact$/;
    await refused(
      client.post('/user-entity/key', { type: 'album', encryptedKey: boxed.encryptedData, header: boxed.nonce }),
      typeRule,
    );
    await refused(client.get('/user-entity/key', { query: { type: 'Location' } }), typeRule);
    await refused(client.get('/user-entity/key'), /^type: /);
    await refused(client.post('/user-entity/entity', { type: 'file', ...data }), typeRule);
    await refused(client.put('/user-entity/entity', { id: 'location_x', type: 'x', ...data }), typeRule);
    await refused(
      client.get('/user-entity/entity/diff', { query: { type: 'nope', sinceTime: 0, limit: 10 } }),
      typeRule,
    );
    await refused(client.get('/user-entity/entity/diff', { query: { type: 'location', limit: 10 } }), /^sinceTime: /);
    await refused(
      client.get('/user-entity/entity/diff', { query: { type: 'location', sinceTime: 0, limit: 5001 } }),
      /limit must be between 1 and 5000/,
    );
    await refused(client.get('/user-entity/entity/diff', { query: { type: 'location', sinceTime: 0 } }), /^limit: /);
    await refused(client.delete('/user-entity/entity', { query: { id: '../x' } }), /^id: must be an entity id/);
    await refused(client.delete('/user-entity/entity'), /^id: /);
    await refused(
      client.post('/user-entity/entity', { type: 'location', header: data.header, encryptedData: 'not base64!' }),
      /^encryptedData: /,
    );
    await refused(
      client.post('/user-entity/entity', { type: 'location', header: data.header, encryptedData: '' }),
      /^encryptedData: /,
    );
    await refused(
      client.post('/user-entity/entity', {
        type: 'location',
        header: data.header,
        encryptedData: 'A'.repeat(limits.maxUserEntityDataB64 + 4),
      }),
      /^encryptedData: /,
    );
    await refused(client.post('/user-entity/entity', { type: 'memory', ...data }), /^no key for type memory/);

    const smartKey = await encryptBoxB64(await generateKeyB64(), account.keys.masterKey);
    await client.post('/user-entity/key', {
      type: 'smart_album',
      encryptedKey: smartKey.encryptedData,
      header: smartKey.nonce,
    });
    await refused(
      client.post('/user-entity/entity', { type: 'smart_album', ...data }),
      /^ID is required for SmartAlbum entity type$/,
    );
    await refused(
      client.post('/user-entity/entity', { type: 'smart_album', id: `sa_${String(account.userID + 1)}_7`, ...data }),
      /is not valid for SmartAlbum entity type$/,
    );
    const smart = await client.post<UserEntity>('/user-entity/entity', {
      type: 'smart_album',
      id: `sa_${String(account.userID)}_7`,
      ...data,
    });
    assert.equal(smart.status, 200, smart.text);
    assert.equal(smart.body.id, `sa_${String(account.userID)}_7`);
    // Nothing refused was stored.
    assert.deepEqual(await pullAll(client, 500), []);
  });

  test('without a token every route is 401', async () => {
    for (const [method, path] of [
      ['GET', '/user-entity/key'],
      ['POST', '/user-entity/key'],
      ['POST', '/user-entity/entity'],
      ['PUT', '/user-entity/entity'],
      ['DELETE', '/user-entity/entity'],
      ['GET', '/user-entity/entity/diff'],
      ['GET', '/files/data/fetch'],
    ] as const) {
      assert.equal((await photos().call(method, path, { token: null })).status, 401, `${method} ${path}`);
    }
  });

  describe('GET /files/data/fetch: no derived data is stored', () => {
    test('204 with preferNoContent, else 404 NOT_FOUND, for a file the caller may read; 404 {} for one they may not', async () => {
      const storeOrigin = new URL(server.url).origin;
      const owner = await PhotosClient.signUp(api, server.mail, storeOrigin);
      const sharee = await PhotosClient.signUp(api, server.mail, storeOrigin);
      const stranger = await PhotosClient.signUp(api, server.mail, storeOrigin);
      const album = await owner.createAlbum('Videos');
      const original = {
        bytes: new Uint8Array([1, 2, 3]),
        thumbnail: new Uint8Array([4]),
        metadata: { title: 'v.mp4' },
      };
      const { file } = await owner.addFile(album, original);
      await owner.shareAlbum(album, sharee.email);
      const fetchData = (client: PhotosClient, query: Record<string, string | number>) =>
        client.api.get('/files/data/fetch', { query });

      for (const reader of [owner, sharee]) {
        const none = await fetchData(reader, { type: 'vid_preview', fileID: file.id, preferNoContent: 'true' });
        assert.equal(none.status, 204, none.text);
        assert.equal(none.text, '');
        const notFound = await fetchData(reader, { type: 'mldata', fileID: file.id });
        assert.equal(notFound.status, 404, notFound.text);
        assert.deepEqual(notFound.body, { code: 'NOT_FOUND', message: '' });
        assert.equal(
          (await fetchData(reader, { type: 'vid_preview', fileID: file.id, preferNoContent: 'false' })).status,
          404,
        );
      }
      for (const fileID of [file.id, file.id + 1000]) {
        const refused = await fetchData(stranger, { type: 'vid_preview', fileID, preferNoContent: 'true' });
        assert.equal(refused.status, 404, refused.text);
        assert.deepEqual(refused.body, {});
      }
      const badType = await fetchData(owner, { type: 'img_preview', fileID: file.id, preferNoContent: 'true' });
      assert.equal(badType.status, 400, badType.text);
      assert.match(badType.body.message ?? '', /^type: unsupported object type/);
      const badID = await fetchData(owner, { type: 'vid_preview', fileID: 'x' });
      assert.equal(badID.status, 400, badID.text);
      const badFlag = await fetchData(owner, { type: 'vid_preview', fileID: file.id, preferNoContent: 'yes' });
      assert.equal(badFlag.status, 400, badFlag.text);
    });
  });
});

describe('user entities: the quota and the hourly writes of one account', () => {
  const { server, api } = suiteServer({
    env: { USER_ENTITY_MAX_ENTITIES: '3', USER_ENTITY_WRITES_PER_HOUR: '6' },
  });

  test('past 3 live entities a create is 403 ENTITY_LIMIT_REACHED; past 6 writes an hour, 429 until the hour ends', async () => {
    const client = api.as(photosPackage);
    const account = await signUp(client, server.mail, { srp: false });
    const owner = await withLocationKey(client, account);
    const made = [await create(owner, 1), await create(owner, 2), await create(owner, 3)];
    const fourth = await client.post('/user-entity/entity', {
      type: 'location',
      ...(await sealed(owner.entityKey, 4)),
    });
    assert.equal(fourth.status, 403, fourth.text);
    assert.equal(fourth.body.code, 'ENTITY_LIMIT_REACHED');
    assert.equal((await pullAll(client, 500)).length, 3, 'nothing was stored');

    // A delete frees its place (deletes are not counted as writes).
    assert.equal((await client.delete('/user-entity/entity', { query: { id: made[0]?.id } })).status, 200);
    await create(owner, 5); // the 5th write of the hour (the 4th was refused but counted)
    const sixth = await client.put('/user-entity/entity', {
      id: made[1]?.id,
      type: 'location',
      ...(await sealed(owner.entityKey, 6)),
    });
    assert.equal(sixth.status, 200, sixth.text);
    const seventh = await client.put('/user-entity/entity', {
      id: made[1]?.id,
      type: 'location',
      ...(await sealed(owner.entityKey, 7)),
    });
    assert.equal(seventh.status, 429, seventh.text);
    assert.equal((await diff(client, 0)).status, 200, 'reads are not limited');
    server.clock.advance(61 * 60 * 1_000_000);
    const later = await client.put('/user-entity/entity', {
      id: made[1]?.id,
      type: 'location',
      ...(await sealed(owner.entityKey, 8)),
    });
    assert.equal(later.status, 200, later.text);
  });
});
