// Photos over real HTTP (docs/protocol.md#photos), as a client of its own would use them with libsodium
// and the wire contract only: an album whose key is boxed with the master key, a small and a multipart
// upload to the signed URLs, POST /files (the same request again answers the same file), the list and
// the diff, downloads through the 307, every key, name, metadata and byte decrypted back; the album
// shared with a second account who opens it with their sealed key; the storage counted in the details;
// and the refusals of another account's ids.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';

import {
  decryptBlobBytes,
  decryptBoxB64,
  decryptBoxBytes,
  encryptBlobB64,
  encryptBoxB64,
  generateKeyB64,
  openSealedBoxBytes,
  sealBoxB64,
  toB64,
  utf8Bytes,
  utf8String,
} from '@ente/crypto';
import {
  featureFlagsResponseSchema,
  type Collection,
  type CollectionDiffResponse,
  type FeatureFlagsResponse,
  type MultipartUploadUrlResponse,
  type PhotoFile,
  type PublicKeyResponse,
  type UploadUrlResponse,
  type UserDetailsResponse,
  type UserPlansResponse,
} from '@ente/protocol';

import type { ApiClient } from '../testing/client.ts';
import { signUp, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const md5Of = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('base64');
const fromB64 = (b64: string) => new Uint8Array(Buffer.from(b64, 'base64'));

describe('photos', () => {
  const { server, api } = suiteServer();
  const photosClient = () => api.as('io.ente.photos.web');

  async function account(): Promise<Account & { client: ApiClient }> {
    const client = photosClient();
    const signed = await signUp(client, server.mail, { srp: false });
    return { ...signed, client };
  }

  async function createAlbum(owner: Account & { client: ApiClient }, name: string) {
    const collectionKey = await generateKeyB64();
    const key = await encryptBoxB64(collectionKey, owner.keys.masterKey);
    const encryptedName = await encryptBoxB64(utf8Bytes(name), collectionKey);
    const created = await owner.client.post<{ collection: Collection }>('/collections', {
      encryptedKey: key.encryptedData,
      keyDecryptionNonce: key.nonce,
      encryptedName: encryptedName.encryptedData,
      nameDecryptionNonce: encryptedName.nonce,
      type: 'album',
    });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.collection.sharees?.length, 0);
    return { collection: created.body.collection, collectionKey };
  }

  /** Uploads bytes through the signed URL(s) the server hands out; multipart when `partLength` is given. */
  async function upload(client: ApiClient, bytes: Uint8Array, partLength?: number): Promise<string> {
    if (partLength === undefined) {
      const answer = await client.post<UploadUrlResponse>('/files/upload-url', {
        contentLength: bytes.length,
        contentMD5: md5Of(bytes),
      });
      assert.equal(answer.status, 200, answer.text);
      const put = await fetch(answer.body.url, {
        method: 'PUT',
        body: bytes,
        headers: { 'Content-MD5': md5Of(bytes) },
      });
      assert.equal(put.status, 200, await put.text());
      return answer.body.objectKey;
    }
    const parts: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += partLength) parts.push(bytes.subarray(at, at + partLength));
    const answer = await client.post<MultipartUploadUrlResponse>('/files/multipart-upload-url', {
      contentLength: bytes.length,
      partLength,
      partMd5s: parts.map(md5Of),
    });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.partURLs.length, parts.length);
    const etags = [];
    for (const [index, part] of parts.entries()) {
      const url = answer.body.partURLs[index] ?? '';
      const put = await fetch(url, { method: 'PUT', body: part, headers: { 'Content-MD5': md5Of(part) } });
      assert.equal(put.status, 200, await put.text());
      etags.push(put.headers.get('etag'));
    }
    const xml = `<CompleteMultipartUpload>${etags
      .map((etag, index) => `<Part><PartNumber>${String(index + 1)}</PartNumber><ETag>${String(etag)}</ETag></Part>`)
      .join('')}</CompleteMultipartUpload>`;
    const done = await fetch(answer.body.completeURL, {
      method: 'POST',
      body: xml,
      headers: { 'Content-Type': 'text/xml' },
    });
    assert.equal(done.status, 200, await done.text());
    return answer.body.objectKey;
  }

  /** A file as the web client makes one: a file key boxed with the collection key, everything under the file key. */
  async function fileRequest(
    client: ApiClient,
    collection: { collection: Collection; collectionKey: string },
    content: Uint8Array,
    partLength?: number,
  ) {
    const fileKey = await generateKeyB64();
    const boxedKey = await encryptBoxB64(fileKey, collection.collectionKey);
    const data = await encryptBlobB64(content, fileKey);
    const thumbnail = await encryptBlobB64(utf8Bytes(`thumbnail of ${String(content.length)}`), fileKey);
    const metadata = await encryptBlobB64(utf8Bytes(JSON.stringify({ title: 'a.jpg', fileType: 0 })), fileKey);
    const fileBytes = fromB64(data.encryptedData);
    const thumbnailBytes = fromB64(thumbnail.encryptedData);
    return {
      collectionID: collection.collection.id,
      encryptedKey: boxedKey.encryptedData,
      keyDecryptionNonce: boxedKey.nonce,
      file: {
        objectKey: await upload(client, fileBytes, partLength),
        decryptionHeader: data.header,
        size: fileBytes.length,
      },
      thumbnail: {
        objectKey: await upload(client, thumbnailBytes),
        decryptionHeader: thumbnail.header,
        size: thumbnailBytes.length,
      },
      metadata: { encryptedData: metadata.encryptedData, decryptionHeader: metadata.header },
    };
  }

  /** Follows a download's 307 (the token in the query, as an <img> would send it) and returns the bytes. */
  async function download(client: ApiClient, token: string, path: string): Promise<Uint8Array> {
    const redirect = await fetch(new URL(`${path}?token=${token}`, server.url), {
      redirect: 'manual',
      headers: { 'X-Client-Package': client.clientPackage },
    });
    assert.equal(redirect.status, 307, await redirect.text());
    const location = redirect.headers.get('location') ?? '';
    assert.ok(location.startsWith(server.url.replace(/\/$/, '')), location);
    const object = await fetch(location);
    assert.equal(object.status, 200);
    return new Uint8Array(await object.arrayBuffer());
  }

  test('an album: upload small and multipart files, list, diff, download and decrypt; share it; count the storage', async () => {
    const owner = await account();
    const album = await createAlbum(owner, 'Holidays 🏖');
    const small = utf8Bytes('a small photo');
    const large = new Uint8Array(5 * 1024 * 1024 + 1000).map((_, i) => i % 251);
    const smallRequest = await fileRequest(owner.client, album, small);
    const made = await owner.client.post<PhotoFile>('/files', smallRequest);
    assert.equal(made.status, 200, made.text);
    assert.equal(made.body.file.objectKey, smallRequest.file.objectKey);
    const again = await owner.client.post<PhotoFile>('/files', smallRequest);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.id, made.body.id, 'the same request answers the same file');
    const largeRequest = await fileRequest(owner.client, album, large, 5 * 1024 * 1024);
    const madeLarge = await owner.client.post<PhotoFile>('/files', largeRequest);
    assert.equal(madeLarge.status, 200, madeLarge.text);

    // The list: the album's key opens with the master key, its name with the album key.
    const listed = await owner.client.get<{ collections: Collection[] }>('/collections/v2', {
      query: { sinceTime: 0 },
    });
    assert.equal(listed.status, 200, listed.text);
    const [seen] = listed.body.collections;
    assert.ok(seen?.keyDecryptionNonce);
    const collectionKey = toB64(
      await decryptBoxBytes({ encryptedData: seen.encryptedKey, nonce: seen.keyDecryptionNonce }, owner.keys.masterKey),
    );
    const name = await decryptBoxBytes(
      { encryptedData: seen.encryptedName, nonce: seen.nameDecryptionNonce },
      collectionKey,
    );
    assert.equal(utf8String(name), 'Holidays 🏖');

    // The diff: both files; each key, metadata and object decrypts to what was uploaded.
    const diff = await owner.client.get<CollectionDiffResponse>('/collections/v2/diff', {
      query: { collectionID: seen.id, sinceTime: 0 },
    });
    assert.equal(diff.status, 200, diff.text);
    assert.equal(diff.body.hasMore, false);
    assert.deepEqual(diff.body.diff.map((f) => f.id).sort(), [made.body.id, madeLarge.body.id].sort());
    for (const [file, content] of [
      [made.body, small],
      [madeLarge.body, large],
    ] as const) {
      const entry = diff.body.diff.find((f) => f.id === file.id);
      assert.ok(entry);
      assert.equal(entry.file.objectKey, undefined, 'diffs carry no object keys');
      const fileKey = await decryptBoxB64(
        { encryptedData: entry.encryptedKey, nonce: entry.keyDecryptionNonce },
        collectionKey,
      );
      const metadata = await decryptBlobBytes(
        { encryptedData: entry.metadata.encryptedData ?? '', header: entry.metadata.decryptionHeader },
        fileKey,
      );
      assert.deepEqual(JSON.parse(utf8String(metadata)), { title: 'a.jpg', fileType: 0 });
      const bytes = await download(owner.client, owner.token, `/files/download/${String(entry.id)}`);
      const plain = await decryptBlobBytes(
        { encryptedData: toB64(bytes), header: entry.file.decryptionHeader },
        fileKey,
      );
      assert.deepEqual(Buffer.from(plain), Buffer.from(content));
      const thumbnail = await download(owner.client, owner.token, `/files/preview/${String(entry.id)}`);
      const thumb = await decryptBlobBytes(
        { encryptedData: toB64(thumbnail), header: entry.thumbnail.decryptionHeader },
        fileKey,
      );
      assert.equal(utf8String(thumb), `thumbnail of ${String(content.length)}`);
    }

    // Storage: both objects of both files.
    const details = await owner.client.get<UserDetailsResponse>('/users/details/v2', {
      query: { memoryCount: 'true' },
    });
    const sizes = [smallRequest, largeRequest].reduce((sum, r) => sum + r.file.size + r.thumbnail.size, 0);
    assert.equal(details.body.usage, sizes);
    assert.equal(details.body.fileCount, 2);
    assert.ok(details.body.subscription.storage > sizes);

    // Shared with a second account, who opens the sealed key with their own key pair.
    const friend = await account();
    const publicKey = await owner.client.get<PublicKeyResponse>('/users/public-key', {
      query: { email: friend.email },
    });
    assert.equal(publicKey.status, 200, publicKey.text);
    const shared = await owner.client.post<{ sharees: { email: string; role: string }[] }>('/collections/share', {
      collectionID: seen.id,
      email: friend.email,
      role: 'VIEWER',
      encryptedKey: await sealBoxB64(collectionKey, publicKey.body.publicKey),
    });
    assert.equal(shared.status, 200, shared.text);
    assert.deepEqual(
      shared.body.sharees.map((s) => [s.email, s.role]),
      [[friend.email, 'VIEWER']],
    );
    const theirs = await friend.client.get<{ collections: Collection[] }>('/collections/v2');
    const [sharedAlbum] = theirs.body.collections;
    assert.ok(sharedAlbum);
    assert.equal(sharedAlbum.owner.email, owner.email);
    const secretKey = await decryptBoxB64(
      {
        encryptedData: friend.keys.keyAttributes.encryptedSecretKey,
        nonce: friend.keys.keyAttributes.secretKeyDecryptionNonce,
      },
      friend.keys.masterKey,
    );
    const opened = toB64(
      await openSealedBoxBytes(sharedAlbum.encryptedKey, friend.keys.keyAttributes.publicKey, secretKey),
    );
    assert.equal(opened, collectionKey);
    const theirDiff = await friend.client.get<CollectionDiffResponse>('/collections/v2/diff', {
      query: { collectionID: seen.id },
    });
    assert.equal(theirDiff.body.diff.length, 2);
    await download(friend.client, friend.token, `/files/preview/${String(made.body.id)}`);

    // The sharee cannot rename, delete or add to it; a stranger sees nothing of it.
    const rename = {
      collectionID: seen.id,
      encryptedName: seen.encryptedName,
      nameDecryptionNonce: seen.nameDecryptionNonce,
    };
    assert.equal((await friend.client.post('/collections/rename', rename)).status, 403);
    assert.equal(
      (await friend.client.delete(`/collections/v3/${String(seen.id)}`, { query: { keepFiles: 'false' } })).status,
      403,
    );
    const stranger = await account();
    const strangerDiff = await stranger.client.get('/collections/v2/diff', { query: { collectionID: seen.id } });
    assert.equal(strangerDiff.status, 404);
    const strangerDownload = await stranger.client.get(`/files/download/${String(made.body.id)}`);
    assert.equal(strangerDownload.status, 404);
    const stolen = await stranger.client.post('/files', {
      ...smallRequest,
      collectionID: (await createAlbum(stranger, 'x')).collection.id,
    });
    assert.equal(stolen.status, 403, "another account's object keys make no file");
  });

  test('refusals: no token 401, malformed input 400, a full quota 426, a stale magic metadata version 409', async () => {
    const owner = await account();
    assert.equal((await owner.client.get('/collections/v2', { token: null })).status, 401);
    const bad = await owner.client.post('/collections', { encryptedKey: 'AAAA', type: 'album' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'BAD_REQUEST');
    const hex = createHash('md5').update('x').digest('hex');
    assert.equal((await owner.client.post('/files/upload-url', { contentLength: 1, contentMD5: hex })).status, 200);
    const tooLarge = await owner.client.post('/files/upload-url', { contentLength: 11 * 1024 ** 3, contentMD5: hex });
    assert.equal(tooLarge.status, 400);
    const overQuota = await owner.client.post('/files/upload-url', { contentLength: 10 * 1024 ** 3, contentMD5: hex });
    assert.equal(overQuota.status, 200, 'the default quota is generous');
    const parts = await owner.client.post('/files/multipart-upload-url', {
      contentLength: 12 * 1024 * 1024,
      partLength: 5 * 1024 * 1024,
      partMd5s: [hex, hex],
    });
    assert.equal(parts.status, 400, 'three parts need three MD5s');

    const album = await createAlbum(owner, 'meta');
    const made = await owner.client.post<PhotoFile>('/files', await fileRequest(owner.client, album, utf8Bytes('x')));
    const meta = { version: 0, count: 1, data: toB64(utf8Bytes('{}')), header: toB64(new Uint8Array(24)) };
    const put = (version: number) =>
      owner.client.put('/files/public-magic-metadata', {
        metadataList: [{ id: made.body.id, magicMetadata: { ...meta, version } }],
      });
    assert.equal((await put(0)).status, 200);
    assert.equal((await put(0)).status, 409, 'the stored version is 1 now');
    assert.equal((await put(1)).status, 200);
  });

  test("the gallery's other calls: feature flags with nothing hosted, the free plan with the quota", async () => {
    const owner = await account();
    const flags = await owner.client.get<FeatureFlagsResponse>('/remote-store/feature-flags');
    assert.equal(flags.status, 200, flags.text);
    assert.equal(featureFlagsResponseSchema.safeParse(flags.body).success, true);
    assert.equal(flags.body.castUrl, '', "an empty castUrl keeps the client's own cast link");
    const plans = await owner.client.get<UserPlansResponse>('/billing/user-plans');
    assert.equal(plans.status, 200, plans.text);
    assert.deepEqual(plans.body, { freePlan: { storage: 1024 ** 4, duration: 100, period: 'year' }, plans: [] });
    assert.equal((await owner.client.get('/remote-store/feature-flags', { token: null })).status, 401);
  });

  describe('a small quota and upload-URL limit', () => {
    const small = suiteServer({ env: { PHOTOS_STORAGE_BYTES: '1000', PHOTOS_UPLOAD_URLS_PER_MINUTE: '3' } });
    test('an upload past the quota and its 50 MB grace is 426; past the limit of upload URLs 429', async () => {
      const client = small.api.as('io.ente.photos.web');
      await signUp(client, small.server.mail, { srp: false });
      const md5 = createHash('md5').update('x').digest('base64');
      const full = await client.post('/files/upload-url', { contentLength: 50 * 1024 * 1024 + 1001, contentMD5: md5 });
      assert.equal(full.status, 426);
      assert.equal((await client.post('/files/upload-url', { contentLength: 1000, contentMD5: md5 })).status, 200);
      assert.equal((await client.post('/files/upload-url', { contentLength: 1, contentMD5: md5 })).status, 200);
      const limited = await client.post('/files/upload-url', { contentLength: 1, contentMD5: md5 });
      assert.equal(limited.status, 429, 'the fourth upload URL of the minute');
      assert.equal(limited.body.error, 'Rate limit breached, try later');
    });
  });
});
