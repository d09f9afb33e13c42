// Trash and public links over real HTTP (docs/protocol.md#trash, #public-links): museum's paths, shapes and
// statuses; the trash diff and restore as a client pulls them; a link opened with the access token in the
// header or the query, its files through the 307 to bytes, a password link with its token in the header
// or the query, and the refusals: another account's ids, another album's file, a changed token, input
// that is not what the schema says, too many password tries from one address; and someone without an account
// who opens a password link with libsodium and the wire contract only, decrypting its file.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';

import * as sodium from '@ente/crypto';
import {
  publicLinkResponseSchema,
  trashDiffResponseSchema,
  type PhotoFile,
  type PublicLink,
  type UploadUrlResponse,
} from '@ente/protocol';

import { createLink, updateLink } from '../services/public-links.ts';
import type { ApiClient } from '../testing/client.ts';
import { signUp } from '../testing/flows.ts';
import { fixtureAlbum, fixtureKey, fixtureUser } from '../testing/photo-fixtures.ts';
import { suiteServer } from '../testing/server.ts';

const b64 = (bytes: number, fill: number) => Buffer.alloc(bytes, fill).toString('base64');
const passHash = b64(32, 5);

describe('trash and public links over HTTP', () => {
  const { server, api } = suiteServer();

  async function account() {
    const client = api.as('io.ente.photos.web');
    const signed = await signUp(client, server.mail, { srp: false });
    client.token = signed.token;
    return { ...signed, client };
  }

  /** Uploads `bytes` through a signed URL and answers its object key. */
  async function upload(client: ApiClient, bytes: Uint8Array): Promise<string> {
    const contentMD5 = createHash('md5').update(bytes).digest('base64');
    const answer = await client.post<UploadUrlResponse>('/files/upload-url', {
      contentLength: bytes.length,
      contentMD5,
    });
    assert.equal(answer.status, 200, answer.text);
    const put = await fetch(answer.body.url, { method: 'PUT', body: bytes, headers: { 'Content-MD5': contentMD5 } });
    assert.equal(put.status, 200, await put.text());
    return answer.body.objectKey;
  }

  /** A file of random bytes in the collection, as POST /files makes it. */
  async function newFile(client: ApiClient, collectionID: number, bytes = randomBytes(300)) {
    const made = await client.post<PhotoFile>('/files', {
      collectionID,
      encryptedKey: b64(48, 1),
      keyDecryptionNonce: b64(24, 2),
      file: { objectKey: await upload(client, bytes), decryptionHeader: b64(24, 3), size: bytes.length },
      thumbnail: { objectKey: await upload(client, randomBytes(20)), decryptionHeader: b64(24, 4) },
      metadata: { encryptedData: b64(40, 5), decryptionHeader: b64(24, 6) },
    });
    assert.equal(made.status, 200, made.text);
    return { id: made.body.id, bytes };
  }

  /** GET a public-collection route with these credentials, without following a redirect. */
  function viewer(path: string, credentials: { headers?: Record<string, string>; query?: Record<string, string> }) {
    const url = new URL(path, server.url);
    for (const [key, value] of Object.entries(credentials.query ?? {})) url.searchParams.set(key, value);
    return fetch(url, {
      redirect: 'manual',
      headers: { 'X-Client-Package': 'io.ente.photos.web', ...credentials.headers },
    });
  }

  test('trash, trash diff, restore, delete for ever and empty, with museum’s shapes; another account changes nothing', async () => {
    const [owner, other] = [await account(), await account()];
    const [first, second] = [
      await fixtureAlbum(server.app.ctx, owner.userID),
      await fixtureAlbum(server.app.ctx, owner.userID),
    ];
    const [a, b, c] = [
      await newFile(owner.client, first),
      await newFile(owner.client, first),
      await newFile(owner.client, first),
    ];
    const items = (ids: number[]) => ({ items: ids.map((fileID) => ({ fileID, collectionID: first })) });

    for (const [client, status] of [
      [other.client, 403],
      [owner.client, 200],
    ] as const) {
      const answer = await client.post('/files/trash', items([a.id, b.id, c.id]));
      assert.equal(answer.status, status, answer.text);
    }
    assert.equal((await owner.client.post('/files/trash', { items: [] })).status, 400);
    const diff = await owner.client.get('/trash/v2/diff', { query: { sinceTime: 0 } });
    assert.equal(diff.status, 200, diff.text);
    const parsed = trashDiffResponseSchema.parse(diff.body);
    assert.deepEqual(parsed.diff.map((entry) => entry.file.id).sort(), [a.id, b.id, c.id].sort());
    assert.equal(parsed.hasMore, false);
    assert.deepEqual((await other.client.get('/trash/v2/diff')).body, { diff: [], hasMore: false });
    const cursor = Math.max(...parsed.diff.map((entry) => entry.updatedAt));

    const restore = (client: ApiClient, fileIDs: number[]) =>
      client.post('/collections/restore-files', { collectionID: second, files: fileIDs.map(fixtureKey) });
    assert.equal((await restore(other.client, [a.id])).status, 404);
    assert.equal((await restore(owner.client, [a.id])).status, 200);
    assert.equal((await restore(owner.client, [a.id])).status, 400);
    assert.equal((await other.client.post('/trash/delete', { fileIDs: [b.id] })).status, 403);
    assert.equal((await owner.client.post('/trash/delete', { fileIDs: [b.id, 999_999_999] })).status, 404);
    assert.equal((await owner.client.post('/trash/delete', { fileIDs: [b.id] })).status, 200);
    assert.equal((await owner.client.post('/trash/delete', { fileIDs: ['1'] })).status, 400);
    const later = trashDiffResponseSchema.parse(
      (await owner.client.get(`/trash/v2/diff?sinceTime=${String(cursor)}`)).body,
    );
    assert.deepEqual(
      later.diff.map((entry) => [entry.file.id, entry.isRestored, entry.isDeleted]).sort(),
      [
        [a.id, true, false],
        [b.id, false, true],
      ].sort(),
    );
    assert.equal((await owner.client.post('/trash/empty', { lastUpdatedAt: cursor })).status, 200);
    assert.equal((await owner.client.post('/trash/empty', { lastUpdatedAt: -1 })).status, 400);
    const last = trashDiffResponseSchema.parse((await owner.client.get('/trash/v2/diff')).body);
    assert.equal(last.diff.find((entry) => entry.file.id === c.id)?.isDeleted, true);
    // What is left in storage is the restored file (its 300 bytes and its thumbnail's 20).
    const details = await owner.client.get<{ usage: number }>('/users/details/v2');
    assert.equal(details.body.usage, 320, details.text);
  });

  test('a public link: made by the owner, opened with the token in the header or the query, its files through the 307', async () => {
    const [owner, other] = [await account(), await account()];
    const collectionID = await fixtureAlbum(server.app.ctx, owner.userID);
    const shown = await newFile(owner.client, collectionID);
    const elsewhere = await newFile(owner.client, await fixtureAlbum(server.app.ctx, owner.userID));

    assert.equal((await other.client.post('/collections/share-url', { collectionID })).status, 403);
    const made = await owner.client.post('/collections/share-url', { collectionID, deviceLimit: 10 });
    assert.equal(made.status, 200, made.text);
    const link = publicLinkResponseSchema.parse(made.body).result;
    const token = new URL(link.url).searchParams.get('t') ?? '';
    assert.equal(link.url, `http://localhost:3000/shared-albums?t=${token}`);

    const byHeader = { headers: { 'X-Auth-Access-Token': token } };
    const info = await viewer('/public-collection/info', byHeader);
    assert.equal(info.status, 200);
    const body = (await info.json()) as { collection: { id: number; publicURLs: unknown[] }; referralCode: string };
    assert.equal(body.collection.id, collectionID);
    // The address and the limits are hidden behind museum's zero values (deviceLimit 10 was set).
    assert.deepEqual(body.collection.publicURLs, [
      {
        url: '',
        deviceLimit: 0,
        validTill: 0,
        enableDownload: true,
        enableCollect: false,
        enableComment: false,
        enableJoin: true,
        passwordEnabled: false,
      },
    ]);
    const diff = await viewer('/public-collection/diff', { query: { accessToken: token, sinceTime: '0' } });
    assert.deepEqual(
      ((await diff.json()) as { diff: { id: number }[] }).diff.map((file) => file.id),
      [shown.id],
    );

    const download = await viewer(`/public-collection/files/download/${String(shown.id)}`, {
      query: { accessToken: token },
    });
    assert.equal(download.status, 307);
    const object = await fetch(download.headers.get('location') ?? '');
    assert.deepEqual(new Uint8Array(await object.arrayBuffer()), new Uint8Array(shown.bytes));
    assert.equal((await viewer(`/public-collection/files/preview/${String(shown.id)}`, byHeader)).status, 307);
    assert.equal((await viewer(`/public-collection/files/download/${String(elsewhere.id)}`, byHeader)).status, 404);
    assert.equal((await viewer('/public-collection/files/download/x', byHeader)).status, 400);

    const invalid = await viewer('/public-collection/info', { headers: { 'X-Auth-Access-Token': 'ZZZZZZZZZZ' } });
    assert.deepEqual([invalid.status, await invalid.json()], [401, { error: 'invalid token' }]);
    assert.equal((await viewer('/public-collection/diff', {})).status, 401);

    assert.equal((await other.client.delete(`/collections/share-url/${String(collectionID)}`)).status, 403);
    assert.equal((await owner.client.delete(`/collections/share-url/${String(collectionID)}`)).status, 200);
    const gone = await viewer('/public-collection/info', byHeader);
    assert.deepEqual([gone.status, await gone.json()], [410, { error: 'disabled token' }]);
  });

  test('a password link: verify-password gives a token that opens it from the header or the query; a changed one is 401', async () => {
    const owner = await account();
    const collectionID = await fixtureAlbum(server.app.ctx, owner.userID);
    const shown = await newFile(owner.client, collectionID);
    const made = await owner.client.post<{ result: PublicLink }>('/collections/share-url', { collectionID });
    const token = new URL(made.body.result.url).searchParams.get('t') ?? '';
    const protect = { collectionID, passHash, nonce: b64(16, 6), memLimit: 67108864, opsLimit: 2 };
    assert.equal((await owner.client.put('/collections/share-url', { ...protect, opsLimit: 'two' })).status, 400);
    const updated = await owner.client.put<{ result: PublicLink }>('/collections/share-url', protect);
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.result.passwordEnabled, true);

    const access = { 'X-Auth-Access-Token': token, 'Content-Type': 'application/json' };
    const verify = (hash: unknown, headers: Record<string, string> = access) =>
      fetch(new URL('/public-collection/verify-password', server.url), {
        method: 'POST',
        headers,
        body: JSON.stringify({ passHash: hash }),
      });
    const info = await viewer('/public-collection/info', { headers: { 'X-Auth-Access-Token': token } });
    assert.equal(info.status, 200);
    assert.equal((await viewer('/public-collection/diff', { headers: { 'X-Auth-Access-Token': token } })).status, 401);
    assert.equal((await verify(b64(32, 9))).status, 401);
    const answer = await verify(passHash);
    assert.equal(answer.status, 200);
    const { jwtToken } = (await answer.json()) as { jwtToken: string };
    assert.match(jwtToken, /^[\w-]+\.[\w-]+\.[\w-]+$/);

    const withJwt = { 'X-Auth-Access-Token': token, 'X-Auth-Access-Token-JWT': jwtToken };
    assert.equal((await viewer('/public-collection/diff', { headers: withJwt })).status, 200);
    const file = `/public-collection/files/download/${String(shown.id)}`;
    assert.equal((await viewer(file, { query: { accessToken: token, accessTokenJWT: jwtToken } })).status, 307);
    const changed = `${jwtToken.slice(0, -1)}${jwtToken.endsWith('A') ? 'B' : 'A'}`;
    assert.equal((await viewer(file, { query: { accessToken: token, accessTokenJWT: changed } })).status, 401);
    assert.equal((await viewer(file, { query: { accessToken: token } })).status, 401);

    // Not a hash, the wrong type, text no hash is made of: 400.
    for (const hostile of [12, null, '\u0000', '\ud800', 'x'.repeat(100_000), ['a']]) {
      assert.equal((await verify(hostile)).status, 400, JSON.stringify(hostile).slice(0, 20));
    }
  });

  test('someone without an account opens a password link: derives the hash from its salt, gets the token, lists the album, decrypts its file', async () => {
    const { client, userID } = await account();
    const collectionID = await fixtureAlbum(server.app.ctx, userID);
    const collectionKey = await sodium.generateKeyB64();
    const fileKey = await sodium.generateKeyB64();
    const photo = sodium.utf8Bytes('the bytes of a photo, as the owner uploaded them');
    const data = await sodium.encryptBlobB64(photo, fileKey);
    const boxedKey = await sodium.encryptBoxB64(fileKey, collectionKey);
    const fileBytes = Buffer.from(data.encryptedData, 'base64');
    const contentMD5 = createHash('md5').update(fileBytes).digest('base64');
    const objectKeys: string[] = [];
    for (const bytes of [fileBytes, Buffer.from('thumbnail')]) {
      const md5 = bytes === fileBytes ? contentMD5 : createHash('md5').update(bytes).digest('base64');
      const url = await client.post<UploadUrlResponse>('/files/upload-url', {
        contentLength: bytes.length,
        contentMD5: md5,
      });
      assert.equal(
        (await fetch(url.body.url, { method: 'PUT', body: bytes, headers: { 'Content-MD5': md5 } })).status,
        200,
      );
      objectKeys.push(url.body.objectKey);
    }
    const made = await client.post<PhotoFile>('/files', {
      collectionID,
      encryptedKey: boxedKey.encryptedData,
      keyDecryptionNonce: boxedKey.nonce,
      file: { objectKey: objectKeys[0], decryptionHeader: data.header },
      thumbnail: { objectKey: objectKeys[1], decryptionHeader: b64(24, 1) },
      metadata: { encryptedData: b64(40, 2), decryptionHeader: b64(24, 3) },
    });
    assert.equal(made.status, 200, made.text);
    const link = await client.post<{ result: PublicLink }>('/collections/share-url', { collectionID });
    const salt = sodium.toB64(randomBytes(16));
    const [opsLimit, memLimit] = [2, 64 * 1024 * 1024];
    const hash = await sodium.deriveKeyB64('a password they were told', salt, opsLimit, memLimit);
    const protect = { collectionID, passHash: hash, nonce: salt, opsLimit, memLimit };
    assert.equal((await client.put('/collections/share-url', protect)).status, 200);

    // The visitor has the URL (the collection key travels in its fragment, which no server sees) and the password.
    const visitor = api.as('io.ente.photos.web');
    const token = new URL(link.body.result.url).searchParams.get('t') ?? '';
    const asVisitor = { token: null, headers: { 'X-Auth-Access-Token': token } };
    const info = await visitor.get<{ collection: { publicURLs: PublicLink[] } }>('/public-collection/info', asVisitor);
    const [settings] = info.body.collection.publicURLs;
    assert.ok(settings?.nonce && settings.opsLimit && settings.memLimit);
    const theirHash = await sodium.deriveKeyB64(
      'a password they were told',
      settings.nonce,
      settings.opsLimit,
      settings.memLimit,
    );
    const verified = await visitor.post<{ jwtToken: string }>(
      '/public-collection/verify-password',
      { passHash: theirHash },
      asVisitor,
    );
    assert.equal(verified.status, 200, verified.text);
    const withJwt = {
      token: null,
      headers: { ...asVisitor.headers, 'X-Auth-Access-Token-JWT': verified.body.jwtToken },
    };
    const diff = await visitor.get<{ diff: PhotoFile[] }>('/public-collection/diff', withJwt);
    const [entry] = diff.body.diff;
    assert.ok(entry);
    const theirFileKey = await sodium.decryptBoxBytes(
      { encryptedData: entry.encryptedKey, nonce: entry.keyDecryptionNonce },
      collectionKey,
    );
    const download = await fetch(new URL(`/public-collection/files/download/${String(entry.id)}`, server.url), {
      redirect: 'manual',
      headers: withJwt.headers,
    });
    assert.equal(download.status, 307);
    const encrypted = new Uint8Array(await (await fetch(download.headers.get('location') ?? '')).arrayBuffer());
    const opened = await sodium.decryptBlobBytes(
      { encryptedData: sodium.toB64(encrypted), header: entry.file.decryptionHeader },
      theirFileKey,
    );
    assert.equal(sodium.utf8String(opened), sodium.utf8String(photo));
  });

  test('someone without an account uploads into an album whose link allows collecting; the file is the owner’s', async () => {
    const owner = await account();
    const { client } = owner;
    const collectionID = await fixtureAlbum(server.app.ctx, owner.userID);
    const otherAlbum = await fixtureAlbum(server.app.ctx, owner.userID);
    const made = await client.post<{ result: PublicLink }>('/collections/share-url', { collectionID });
    const headers = { 'X-Auth-Access-Token': new URL(made.body.result.url).searchParams.get('t') ?? '' };
    const visitor = api.as('io.ente.photos.web');
    const bytes = randomBytes(64);
    const contentMD5 = createHash('md5').update(bytes).digest('base64');
    const askForUrl = () =>
      visitor.post<UploadUrlResponse>(
        '/public-collection/upload-url',
        { contentLength: 64, contentMD5 },
        { token: null, headers },
      );
    const refusedCollect = await askForUrl();
    assert.deepEqual([refusedCollect.status, refusedCollect.body.code], [405, 'PUBLIC_COLLECT_DISABLED']);

    await client.put('/collections/share-url', { collectionID, enableCollect: true });
    const objectKeys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const url = await askForUrl();
      assert.equal(url.status, 200, url.text);
      assert.ok(url.body.objectKey.startsWith(`${String(owner.userID)}/`), 'the object is the owner’s');
      const put = await fetch(url.body.url, { method: 'PUT', body: bytes, headers: { 'Content-MD5': contentMD5 } });
      assert.equal(put.status, 200);
      objectKeys.push(url.body.objectKey);
    }
    const file = (target: number) => ({
      collectionID: target,
      encryptedKey: b64(48, 1),
      keyDecryptionNonce: b64(24, 2),
      file: { objectKey: objectKeys[0], decryptionHeader: b64(24, 3) },
      thumbnail: { objectKey: objectKeys[1], decryptionHeader: b64(24, 4) },
      metadata: { encryptedData: b64(40, 5), decryptionHeader: b64(24, 6) },
    });
    const elsewhere = await visitor.post('/public-collection/file', file(otherAlbum), { token: null, headers });
    assert.equal(elsewhere.status, 400);
    const created = await visitor.post<PhotoFile>('/public-collection/file', file(collectionID), {
      token: null,
      headers,
    });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.ownerID, owner.userID);
    const diff = await client.get<{ diff: PhotoFile[] }>('/collections/v2/diff', { query: { collectionID } });
    assert.deepEqual(
      diff.body.diff.map((entry) => entry.id),
      [created.body.id],
    );
  });
});

describe('verify-password per client address', () => {
  const { server } = suiteServer({ env: { RATE_LIMIT_PER_MINUTE: '4' } });

  test('the fifth try within a minute from one address is 429, even with the right hash', async () => {
    const ctx = server.app.ctx;
    const owner = await fixtureUser(ctx, 'limit');
    const collectionID = await fixtureAlbum(ctx, owner.id);
    const link = await createLink(ctx, owner.id, { collectionID });
    await updateLink(ctx, owner.id, { collectionID, passHash, nonce: b64(16, 6), memLimit: 67108864, opsLimit: 2 });
    const verify = (hash: string) =>
      fetch(new URL('/public-collection/verify-password', server.url), {
        method: 'POST',
        headers: {
          'X-Auth-Access-Token': new URL(link.url).searchParams.get('t') ?? '',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ passHash: hash }),
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await verify(b64(32, i))).status);
    statuses.push((await verify(passHash)).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
  });
});
