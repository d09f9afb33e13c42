// A scripted client of our own (testing/photos-client.ts: libsodium and the wire contract only) tells the
// photos story over real HTTP, once with the embedded store and once with the server on a real S3 server
// process (s3rver); the suite runs on PGlite and on PostgreSQL. The owner makes an album, uploads a small
// and a multipart file with thumbnails and metadata, lists and downloads them and decrypts every key,
// name, thumbnail and byte back to the originals; shares the album with a second account who opens it;
// makes a password link that someone without an account opens; trashes, restores and deletes a file for
// ever, whose objects the sweep then removes from the store while the other file's stay.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { utf8Bytes } from '@ente/crypto';
import type { PhotoFile } from '@ente/protocol';

import { ledgerRowOf } from '../db/object-ledger.ts';
import { MICROS_PER_SECOND } from '../lib/clock.ts';
import { sweepObjects } from '../services/object-ledger.ts';
import type { ApiClient } from '../testing/client.ts';
import {
  base58Decode,
  base58Encode,
  LinkVisitor,
  md5Of,
  PhotosClient,
  type Original,
  type UploadedFile,
} from '../testing/photos-client.ts';
import { startS3Server, type S3TestServer } from '../testing/s3-server.ts';
import { suiteServer, type TestServer } from '../testing/server.ts';

const PART = 5 * 1024 * 1024;
const originals: Record<'small' | 'large', Original> = {
  small: {
    bytes: utf8Bytes('a small photo'),
    thumbnail: utf8Bytes('the thumbnail of a small photo'),
    metadata: { title: 'small.jpg', fileType: 0, creationTime: 1_700_000_000_000_000 },
  },
  large: {
    bytes: new Uint8Array(PART + 1000).map((_, i) => i % 251),
    thumbnail: utf8Bytes('the thumbnail of a large video'),
    metadata: { title: 'large.mp4', fileType: 1, creationTime: 1_700_000_000_000_001 },
  },
};

/** The objects' bytes in storage: what /users/details/v2 counts. */
const sizeOf = (uploaded: UploadedFile) => (uploaded.request.file.size ?? 0) + (uploaded.request.thumbnail.size ?? 0);
const objectKeysOf = (uploaded: UploadedFile) => [
  uploaded.request.file.objectKey,
  uploaded.request.thumbnail.objectKey,
];

/** The whole story on one server; `storeOrigin` is where its downloads must lead. */
function photosStory(server: TestServer, api: ApiClient, storeOrigin: () => string) {
  const signUp = () => PhotosClient.signUp(api, server.mail, storeOrigin());
  const ids = (entries: PhotoFile[]) => entries.map((entry) => entry.id).sort((a, b) => a - b);

  async function assertOpens(
    open: (entry: PhotoFile) => Promise<Original>,
    entries: PhotoFile[],
    files: UploadedFile[],
  ) {
    for (const uploaded of files) {
      const entry = entries.find((candidate) => candidate.id === uploaded.file.id);
      assert.ok(entry, `file ${String(uploaded.file.id)} is listed`);
      const opened = await open(entry);
      assert.deepEqual(Buffer.from(opened.bytes), Buffer.from(uploaded.original.bytes));
      assert.deepEqual(Buffer.from(opened.thumbnail), Buffer.from(uploaded.original.thumbnail));
      assert.deepEqual(opened.metadata, uploaded.original.metadata);
    }
  }

  test('an album: small and multipart uploads, listed and decrypted back; shared; a password link; the trash', async () => {
    // The owner's album and two files; the same POST /files again answers the same file.
    const owner = await signUp();
    const album = await owner.createAlbum('Holidays 🏖');
    const small = await owner.addFile(album, originals.small);
    const again = await owner.api.post<PhotoFile>('/files', small.request);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.id, small.file.id, 'the same request answers the same file');
    const large = await owner.addFile(album, originals.large, PART);
    const both = [small, large];

    // The list opens with the master key, the diff's keys with the album's, and every byte comes back.
    const [listed, ...others] = await owner.albums();
    assert.equal(others.length, 0);
    assert.ok(listed);
    assert.deepEqual([listed.id, listed.key, listed.name], [album.id, album.key, 'Holidays 🏖']);
    assert.deepEqual(listed.collection.sharees, []);
    const diff = await owner.albumDiff(album.id);
    assert.deepEqual(ids(diff), ids(both.map((uploaded) => uploaded.file)));
    for (const entry of diff) assert.equal(entry.file.objectKey, undefined, 'diffs carry no object keys');
    await assertOpens((entry) => owner.openFile(entry, album), diff, both);
    const details = await owner.details();
    assert.deepEqual([details.usage, details.fileCount], [sizeOf(small) + sizeOf(large), 2]);
    assert.ok(details.subscription.storage > details.usage);

    // Shared with a second account, who opens the sealed key with their own key pair, then the files.
    const friend = await signUp();
    const sharees = await owner.shareAlbum(album, friend.email);
    assert.deepEqual(
      sharees.map((sharee) => [sharee.email, sharee.role]),
      [[friend.email, 'VIEWER']],
    );
    const [theirs] = await friend.albums();
    assert.deepEqual([theirs?.id, theirs?.key, theirs?.name], [album.id, album.key, 'Holidays 🏖']);
    assert.equal(theirs?.collection.owner.email, owner.email);
    await assertOpens((entry) => friend.openFile(entry, album), await friend.albumDiff(album.id), both);

    // The sharee cannot rename or delete it; a stranger sees nothing of it and cannot claim its objects.
    const { encryptedName, nameDecryptionNonce } = listed.collection;
    const rename = { collectionID: album.id, encryptedName, nameDecryptionNonce };
    assert.equal((await friend.api.post('/collections/rename', rename)).status, 403);
    const remove = `/collections/v3/${String(album.id)}`;
    assert.equal((await friend.api.delete(remove, { query: { keepFiles: 'false' } })).status, 403);
    const stranger = await signUp();
    assert.equal((await stranger.api.get('/collections/v2/diff', { query: { collectionID: album.id } })).status, 404);
    assert.equal((await stranger.api.get(`/files/download/${String(small.file.id)}`)).status, 404);
    const strangersAlbum = await stranger.createAlbum('mine');
    const stolen = await stranger.api.post('/files', { ...small.request, collectionID: strangersAlbum.id });
    assert.equal(stolen.status, 403, "another account's object keys make no file");

    // A password link: someone without an account opens it with the key from its fragment.
    const link = await owner.makePasswordLink(album, 'a password they were told');
    assert.equal(new URL(link).searchParams.has('t'), true);
    const withoutPassword = await fetch(new URL('/public-collection/diff', server.url), {
      headers: { 'X-Auth-Access-Token': new URL(link).searchParams.get('t') ?? '' },
    });
    assert.equal(withoutPassword.status, 401, 'a password link needs the token of verify-password');
    const visitor = await LinkVisitor.open(server.url, storeOrigin(), link, 'a password they were told');
    assert.deepEqual([visitor.album.id, visitor.album.key], [album.id, album.key]);
    const seen = await visitor.diff();
    assert.deepEqual(ids(seen), ids(diff));
    await assertOpens((entry) => visitor.openFile(entry), seen, both);

    // The trash: the small file leaves the album (for the sharee and the link too) and waits in the trash.
    await owner.trashFiles(album.id, [small.file.id]);
    assert.deepEqual(await owner.albumFileIDs(album.id), [large.file.id]);
    assert.deepEqual(await friend.albumFileIDs(album.id), [large.file.id]);
    assert.equal((await visitor.get(`/public-collection/files/download/${String(small.file.id)}`)).status, 404);
    const [trashed, ...moreTrash] = await owner.trashDiff();
    assert.equal(moreTrash.length, 0);
    assert.deepEqual([trashed?.file.id, trashed?.isDeleted, trashed?.isRestored], [small.file.id, false, false]);

    // Restored into the album with its key boxed again, it opens as before.
    assert.ok(trashed);
    await owner.restore(album, [trashed], album);
    assert.deepEqual(await owner.albumFileIDs(album.id), ids(diff));
    assert.equal((await owner.trashDiff(trashed.updatedAt)).at(-1)?.isRestored, true);
    await assertOpens((entry) => owner.openFile(entry, album), await owner.albumDiff(album.id), [small]);

    // Trashed again and deleted for ever: it leaves the storage count, and its objects go to the ledger.
    await owner.trashFiles(album.id, [small.file.id]);
    const cursor = Math.max(...(await owner.trashDiff()).map((entry) => entry.updatedAt));
    await owner.deleteForever([small.file.id]);
    const [deleted] = await owner.trashDiff(cursor);
    assert.deepEqual([deleted?.file.id, deleted?.isDeleted], [small.file.id, true]);
    const left = await owner.details();
    assert.deepEqual([left.usage, left.fileCount], [sizeOf(large), 1]);
    const ctx = server.app.ctx;
    for (const key of objectKeysOf(small)) assert.equal((await ledgerRowOf(ctx.db, key))?.reason, 'deleted', key);

    // The sweep removes them from the store; the other file's objects stay, and it still opens.
    const swept = await sweepObjects(ctx, server.app.objectStore);
    assert.deepEqual(swept.failed, []);
    for (const key of objectKeysOf(small)) assert.equal(await server.app.objectStore.head(key), undefined, key);
    for (const key of objectKeysOf(large)) assert.ok(await server.app.objectStore.head(key), key);
    await assertOpens((entry) => owner.openFile(entry, album), await owner.albumDiff(album.id), [large]);
    await assertOpens((entry) => visitor.openFile(entry), await visitor.diff(), [large]);
  });

  return { signUp };
}

describe('a scripted photos client on the embedded store', () => {
  const { server, api } = suiteServer();
  const { signUp } = photosStory(server, api, () => new URL(server.url).origin);

  test('the URLs the server hands out: a body (or part) of another MD5 is 400, a changed or expired signature 403', async () => {
    const owner = await signUp();
    const bytes = utf8Bytes('signed bytes');
    const answer = await owner.api.post<{ url: string }>('/files/upload-url', {
      contentLength: bytes.length,
      contentMD5: md5Of(bytes),
    });
    const parts = await owner.api.post<{ partURLs: string[] }>('/files/multipart-upload-url', {
      contentLength: bytes.length,
      partLength: bytes.length,
      partMd5s: [md5Of(bytes)],
    });
    // The same length, another MD5: to the single upload's URL and to a part's.
    for (const url of [answer.body.url, parts.body.partURLs[0] ?? '']) {
      const body = utf8Bytes('signed bytez');
      const wrong = await fetch(url, { method: 'PUT', body, headers: { 'Content-MD5': md5Of(bytes) } });
      assert.equal(wrong.status, 400);
      assert.match(await wrong.text(), /<Code>BadDigest<\/Code>/);
    }

    const album = await owner.createAlbum('signatures');
    const { file } = await owner.addFile(album, originals.small);
    const redirect = await fetch(new URL(`/files/download/${String(file.id)}`, server.url), {
      redirect: 'manual',
      headers: { 'X-Client-Package': owner.api.clientPackage, 'X-Auth-Token': owner.account.token },
    });
    assert.equal(redirect.status, 307);
    const location = new URL(redirect.headers.get('location') ?? '');
    const changed = new URL(location);
    changed.pathname = `/objects/${String(owner.account.userID)}/other`;
    const resigned = new URL(location);
    resigned.searchParams.set('signature', 'A'.repeat(43));
    for (const url of [changed, resigned]) assert.equal((await fetch(url)).status, 403, url.pathname);
    assert.equal((await fetch(location)).status, 200);
    server.clock.advance(3601 * MICROS_PER_SECOND);
    assert.equal((await fetch(location)).status, 403, 'a download URL lives an hour');
  });
});

describe('a scripted photos client with the server on an S3 server (s3rver)', () => {
  let s3: S3TestServer | undefined;
  const env: Record<string, string> = {};
  before(async () => {
    s3 = await startS3Server();
    Object.assign(env, {
      S3_BUCKET: s3.storeOptions.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    });
  });
  // Started after the S3 server (hooks run in order), with the environment filled in by then.
  const { server, api } = suiteServer({ env });
  after(() => s3?.stop());
  photosStory(server, api, () => s3?.endpoint ?? '');

  // s3rver checks neither V4 signatures nor Content-MD5 (those refusals are tested on the embedded store
  // above and in objects.test.ts); it does refuse a URL past its X-Amz-Expires, which our presigner sets.
  test('a presigned URL past its expiry is 403', async () => {
    const store = server.app.objectStore;
    const url = await store.presignGet('1/expiring', 1);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /Request has expired/);
  });
});

test('base58 as Ente writes link keys: leading zero bytes, round trips, a known value', () => {
  assert.equal(base58Encode(utf8Bytes('hello world')), 'StV1DL6CwTryKyV');
  assert.equal(base58Encode(new Uint8Array([0, 0, 1])), '112');
  for (const bytes of [new Uint8Array(32), new Uint8Array(32).fill(255), new Uint8Array([0, 7, 0, 9])]) {
    assert.deepEqual(base58Decode(base58Encode(bytes)), bytes);
  }
  assert.throws(() => base58Decode('0OIl'), /not base58/);
});
