// Collections and files without HTTP (docs/protocol.md#photos): who may do what with an album and its
// files (every id checked against the caller: another account's collection, file or object key changes
// nothing), the upload rules (keys handed out to the caller, objects present with their sizes, the same
// request answering the same file, the quota), diff paging that never splits one change, magic
// metadata versions, and the one diff rule under concurrent writers.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';

import type { PhotoFile } from '@ente/protocol';

import { EmbeddedObjectStore } from '../adapters/object-store/embedded.ts';
import { insertUserWithKeyAttributes, suiteContext } from '../testing/context.ts';
import { collectionDiff } from '../testing/photo-fixtures.ts';
import { refused } from '../testing/refusals.ts';
import * as collections from './collections.ts';
import { createFile, fileObjectUrl, storageOf, updateMagicMetadata, uploadUrl } from './files.ts';

const b64 = (bytes: number, fill = 1) => Buffer.alloc(bytes, fill).toString('base64');
const keyItem = (id: number) => ({ id, encryptedKey: b64(48, 2), keyDecryptionNonce: b64(24, 3) });
const magic = (version: number, count = 1) => ({ version, count, data: b64(40), header: b64(24) });

describe('photos services', () => {
  const testContext = suiteContext({ PHOTOS_STORAGE_BYTES: String(10 * 1024 * 1024) });
  let store: EmbeddedObjectStore;
  let n = 0;
  before(async () => {
    store = await EmbeddedObjectStore.open({
      root: undefined,
      signingKey: new Uint8Array(32),
      baseUrl: '',
      now: () => Date.now(),
    });
  });
  after(() => store.close());
  const ctx = () => testContext().ctx;

  const newUser = async () => {
    const email = `photos-${String(++n)}-${String(Date.now())}@example.org`;
    return { id: await insertUserWithKeyAttributes(ctx(), email), email };
  };
  /** The share request of `byUserID`: `email` gets `collectionID` with `role`, under a sealed key of 80 bytes. */
  const share = (byUserID: number, collectionID: number, email: string, role: 'VIEWER' | 'COLLABORATOR' = 'VIEWER') =>
    collections.shareCollection(ctx(), byUserID, { collectionID, email, role, encryptedKey: b64(80, 9) });
  /** `userID` moves `fileID` between two collections (its key boxed anew for the target). */
  const move = (userID: number, from: number, to: number, fileID: number) =>
    collections.moveFiles(ctx(), userID, { fromCollectionID: from, toCollectionID: to, files: [keyItem(fileID)] });
  const newAlbum = async (userID: number, type: 'album' | 'favorites' = 'album') =>
    collections.createCollection(ctx(), userID, 'photos', {
      encryptedKey: b64(48),
      keyDecryptionNonce: b64(24),
      encryptedName: b64(30),
      nameDecryptionNonce: b64(24),
      type,
    });

  /** An object the caller got an upload URL for and uploaded. */
  async function uploaded(userID: number, bytes = 100) {
    const body = Buffer.alloc(bytes, n++ % 250);
    const md5 = createHash('md5').update(body).digest('base64');
    const { objectKey } = await uploadUrl(ctx(), store, userID, { contentLength: bytes, contentMD5: md5 });
    const result = await store.receive({ method: 'PUT', key: objectKey, length: bytes, md5 }, Readable.from([body]));
    assert.ok(!('error' in result));
    return objectKey;
  }
  async function fileBody(userID: number, collectionID: number, sizes = { file: 100, thumbnail: 10 }) {
    return {
      collectionID,
      ...keyItem(0),
      file: { objectKey: await uploaded(userID, sizes.file), decryptionHeader: b64(24), size: sizes.file },
      thumbnail: { objectKey: await uploaded(userID, sizes.thumbnail), decryptionHeader: b64(24) },
      metadata: { encryptedData: b64(60), decryptionHeader: b64(24) },
      pubMagicMetadata: magic(1),
    };
  }
  const newFile = async (userID: number, collectionID: number) =>
    createFile(ctx(), store, userID, 'photos', await fileBody(userID, collectionID));
  const diffIDs = async (userID: number, collectionID: number, since = 0) =>
    (await collectionDiff(ctx(), userID, collectionID, since)).diff.filter((f) => !f.isDeleted).map((f) => f.id);

  describe('collections', () => {
    test('a second favorites answers the first; a user without key attributes cannot create', async () => {
      const owner = await newUser();
      const first = await newAlbum(owner.id, 'favorites');
      assert.equal((await newAlbum(owner.id, 'favorites')).id, first.id);
      assert.equal(first.owner.id, owner.id);
      assert.equal(first.keyDecryptionNonce, b64(24));
      await refused(
        collections.createCollection(ctx(), owner.id, 'auth', { ...first, keyDecryptionNonce: b64(24), type: 'album' }),
        400,
      );
    });

    test('sharing shows the collection to the sharee with the sealed key; only the owner renames, shares, deletes', async () => {
      const [owner, sharee, stranger] = [await newUser(), await newUser(), await newUser()];
      const album = await newAlbum(owner.id);
      await refused(share(sharee.id, album.id, stranger.email), 403);
      await refused(share(owner.id, album.id, owner.email), 400);
      await refused(share(owner.id, album.id, 'nobody@example.org'), 404);
      const sharees = await share(owner.id, album.id, sharee.email);
      assert.deepEqual(sharees, [{ id: sharee.id, email: sharee.email, name: '', role: 'VIEWER' }]);
      const [seen] = await collections.collectionsOf(ctx(), sharee.id, 'photos', 0);
      assert.equal(seen?.id, album.id);
      assert.equal(seen.encryptedKey, b64(80, 9));
      assert.equal(seen.keyDecryptionNonce, undefined);
      assert.equal(seen.owner.email, owner.email);
      assert.deepEqual(await collections.collectionsOf(ctx(), stranger.id, 'photos', 0), []);

      const rename = { collectionID: album.id, encryptedName: b64(31), nameDecryptionNonce: b64(24) };
      await refused(collections.renameCollection(ctx(), sharee.id, rename), 403);
      await refused(collections.renameCollection(ctx(), stranger.id, rename), 403);
      await refused(collections.deleteCollection(ctx(), sharee.id, album.id, true), 403);
      await refused(collections.leaveCollection(ctx(), owner.id, album.id), 403);
      const [unchanged] = await collections.collectionsOf(ctx(), owner.id, 'photos', seen.updationTime - 1);
      assert.equal(unchanged?.encryptedName, album.encryptedName, 'refusals changed nothing');

      await collections.renameCollection(ctx(), owner.id, rename);
      const [renamed] = await collections.collectionsOf(ctx(), sharee.id, 'photos', seen.updationTime);
      assert.equal(renamed?.encryptedName, b64(31), 'the rename reaches the sharee past their cursor');

      await collections.leaveCollection(ctx(), sharee.id, album.id);
      const [left] = await collections.collectionsOf(ctx(), sharee.id, 'photos', renamed.updationTime);
      assert.equal(left?.isDeleted, true, 'a left collection is reported deleted to the sharee');
      assert.deepEqual((await collections.collectionsOf(ctx(), owner.id, 'photos', 0))[0]?.sharees, []);
    });

    test("add-files: the owner and collaborators add their own files; viewers, strangers and others' files are refused", async () => {
      const [owner, collaborator, viewer, stranger] = [
        await newUser(),
        await newUser(),
        await newUser(),
        await newUser(),
      ];
      const album = await newAlbum(owner.id);
      for (const [user, role] of [
        [collaborator, 'COLLABORATOR'],
        [viewer, 'VIEWER'],
      ] as const) {
        await share(owner.id, album.id, user.email, role);
      }
      const ownerFile = await newFile(owner.id, album.id);
      const collaboratorAlbum = await newAlbum(collaborator.id);
      const collaboratorFile = await newFile(collaborator.id, collaboratorAlbum.id);
      const viewerFile = await newFile(viewer.id, (await newAlbum(viewer.id)).id);
      const strangerAlbum = await newAlbum(stranger.id);

      await refused(
        collections.addFiles(ctx(), viewer.id, 'photos', { collectionID: album.id, files: [keyItem(viewerFile.id)] }),
        403,
      );
      await refused(
        collections.addFiles(ctx(), stranger.id, 'photos', { collectionID: album.id, files: [keyItem(viewerFile.id)] }),
        404,
      );
      await refused(
        collections.addFiles(ctx(), collaborator.id, 'photos', {
          collectionID: album.id,
          files: [keyItem(ownerFile.id)],
        }),
        403,
      );
      await refused(
        collections.addFiles(ctx(), owner.id, 'photos', {
          collectionID: strangerAlbum.id,
          files: [keyItem(ownerFile.id)],
        }),
        404,
      );
      await refused(
        collections.addFiles(ctx(), owner.id, 'photos', { collectionID: album.id, files: [keyItem(999_999_999)] }),
        404,
      );
      assert.deepEqual(await diffIDs(owner.id, album.id), [ownerFile.id]);
      assert.deepEqual(await diffIDs(stranger.id, strangerAlbum.id), []);

      await collections.addFiles(ctx(), collaborator.id, 'photos', {
        collectionID: album.id,
        files: [keyItem(collaboratorFile.id)],
      });
      assert.deepEqual((await diffIDs(viewer.id, album.id)).sort(), [ownerFile.id, collaboratorFile.id].sort());
      await refused(collectionDiff(ctx(), stranger.id, album.id, 0), 404);

      // Removal: the collaborator their own, the owner others', nobody the owner's.
      await refused(
        collections.removeFiles(ctx(), collaborator.id, { collectionID: album.id, fileIDs: [ownerFile.id] }),
        400,
      );
      await refused(collections.removeFiles(ctx(), owner.id, { collectionID: album.id, fileIDs: [ownerFile.id] }), 400);
      await refused(
        collections.removeFiles(ctx(), stranger.id, { collectionID: album.id, fileIDs: [collaboratorFile.id] }),
        404,
      );
      await collections.removeFiles(ctx(), owner.id, { collectionID: album.id, fileIDs: [collaboratorFile.id] });
      assert.deepEqual(await diffIDs(viewer.id, album.id), [ownerFile.id]);

      // Unsharing takes the files the sharee added.
      await collections.addFiles(ctx(), collaborator.id, 'photos', {
        collectionID: album.id,
        files: [keyItem(collaboratorFile.id)],
      });
      await collections.unshareCollection(ctx(), owner.id, { collectionID: album.id, email: collaborator.email });
      assert.deepEqual(await diffIDs(owner.id, album.id), [ownerFile.id]);
      await refused(collectionDiff(ctx(), collaborator.id, album.id, 0), 404);
    });

    test('move-files and delete: owned collections only; keepFiles needs an empty collection', async () => {
      const [owner, other] = [await newUser(), await newUser()];
      const [a, b] = [await newAlbum(owner.id), await newAlbum(owner.id)];
      const file = await newFile(owner.id, a.id);
      const othersAlbum = await newAlbum(other.id);
      await refused(move(owner.id, a.id, a.id, file.id), 400);
      await refused(move(other.id, a.id, othersAlbum.id, file.id), 404);
      await share(owner.id, a.id, other.email, 'COLLABORATOR');
      await refused(move(other.id, a.id, othersAlbum.id, file.id), 403);
      await refused(collections.deleteCollection(ctx(), owner.id, a.id, true), 409, 'COLLECTION_NOT_EMPTY');
      await move(owner.id, a.id, b.id, file.id);
      assert.deepEqual(await diffIDs(owner.id, a.id), []);
      assert.deepEqual(await diffIDs(owner.id, b.id), [file.id]);
      await collections.deleteCollection(ctx(), owner.id, a.id, true);
      const listed = await collections.collectionsOf(ctx(), other.id, 'photos', 0);
      assert.equal(listed.find((c) => c.id === a.id)?.isDeleted, true, 'the sharee learns the collection is gone');
      await refused(
        collections.addFiles(ctx(), owner.id, 'photos', { collectionID: a.id, files: [keyItem(file.id)] }),
        404,
        'COLLECTION_DELETED',
      );
      const favorites = await newAlbum(owner.id, 'favorites');
      await refused(collections.deleteCollection(ctx(), owner.id, favorites.id, false), 400);
      await collections.deleteCollection(ctx(), owner.id, b.id, false);
      assert.deepEqual(await diffIDs(owner.id, b.id), []);
    });
  });

  describe('collection magic metadata', () => {
    test('the owner sets the private and public ones, a sharee their own; nobody else anything', async () => {
      const [owner, sharee, stranger] = [await newUser(), await newUser(), await newUser()];
      const album = await newAlbum(owner.id);
      await share(owner.id, album.id, sharee.email);
      const set = (userID: number, which: 'private' | 'public' | 'sharee', version = 1) =>
        collections.updateCollectionMagicMetadata(
          ctx(),
          userID,
          { id: album.id, magicMetadata: magic(version) },
          which,
        );
      await refused(set(sharee.id, 'private'), 403);
      await refused(set(stranger.id, 'public'), 403);
      await refused(set(stranger.id, 'sharee'), 404);
      await refused(set(owner.id, 'sharee'), 404);
      await set(owner.id, 'private', 1);
      await set(owner.id, 'public', 4);
      await set(sharee.id, 'sharee', 2);
      const [own] = await collections.collectionsOf(ctx(), owner.id, 'photos', 0);
      assert.deepEqual(
        [own?.magicMetadata, own?.pubMagicMetadata, own?.sharedMagicMetadata],
        [magic(2), magic(5), undefined],
      );
      const [theirs] = await collections.collectionsOf(ctx(), sharee.id, 'photos', 0);
      assert.deepEqual(
        [theirs?.magicMetadata, theirs?.pubMagicMetadata, theirs?.sharedMagicMetadata],
        [undefined, magic(5), magic(3)],
        "a sharee sees the public metadata and their own, not the owner's private one",
      );
    });
  });

  describe('files', () => {
    test("POST /files: the same request answers the same file; objects must be the caller's, present, of the declared size", async () => {
      const [owner, other] = [await newUser(), await newUser()];
      const album = await newAlbum(owner.id);
      const body = await fileBody(owner.id, album.id);
      const made = await createFile(ctx(), store, owner.id, 'photos', body);
      assert.equal(made.file.objectKey, body.file.objectKey);
      assert.deepEqual(made.info, { fileSize: 100, thumbSize: 10 });
      assert.deepEqual(await createFile(ctx(), store, owner.id, 'photos', body), made, 'same request, same file');
      const [again, another] = await Promise.all([
        createFile(ctx(), store, owner.id, 'photos', body),
        createFile(ctx(), store, owner.id, 'photos', await fileBody(owner.id, album.id)),
      ]);
      assert.equal(again.id, made.id);
      assert.notEqual(another.id, made.id);

      // Another account's keys, a key never handed out, a used key paired anew, a wrong size, a missing object,
      // another's collection.
      const othersBody = await fileBody(other.id, (await newAlbum(other.id)).id);
      await refused(createFile(ctx(), store, owner.id, 'photos', { ...othersBody, collectionID: album.id }), 403);
      // An object in the store under the caller's prefix whose key the server never handed out.
      const unknownKey = `${String(owner.id)}/never-handed-out`;
      const md5 = createHash('md5').update('x').digest('base64');
      await store.receive({ method: 'PUT', key: unknownKey, length: 1, md5 }, Readable.from([Buffer.from('x')]));
      const fresh = await fileBody(owner.id, album.id);
      await refused(
        createFile(ctx(), store, owner.id, 'photos', {
          ...fresh,
          file: { ...fresh.file, objectKey: unknownKey, size: 1 },
        }),
        403,
      );
      await refused(
        createFile(ctx(), store, owner.id, 'photos', { ...body, thumbnail: fresh.thumbnail }),
        400,
        'BAD_REQUEST',
      );
      await refused(createFile(ctx(), store, owner.id, 'photos', { ...fresh, file: { ...fresh.file, size: 99 } }), 400);
      const { objectKey: notUploaded } = await uploadUrl(ctx(), store, owner.id, {
        contentLength: 5,
        contentMD5: b64(16),
      });
      await refused(
        createFile(ctx(), store, owner.id, 'photos', {
          ...fresh,
          thumbnail: { ...fresh.thumbnail, objectKey: notUploaded },
        }),
        503,
        'OBJECT_SIZE_FETCH_FAILED',
      );
      await refused(createFile(ctx(), store, other.id, 'photos', { ...othersBody, collectionID: album.id }), 403);
      await refused(
        createFile(ctx(), store, owner.id, 'photos', { ...othersBody, file: fresh.file, thumbnail: fresh.thumbnail }),
        403,
      );
      // Nothing of the refused requests was made: the fresh objects still make a file.
      await createFile(ctx(), store, owner.id, 'photos', fresh);
      assert.equal((await storageOf(ctx(), owner.id)).fileCount, 3);
    });

    test('downloads: the owner and sharees of a collection holding the file; nobody else', async () => {
      const [owner, sharee, stranger] = [await newUser(), await newUser(), await newUser()];
      const album = await newAlbum(owner.id);
      const file = await newFile(owner.id, album.id);
      assert.match(await fileObjectUrl(ctx(), store, owner.id, file.id, 'file'), /^\/objects\//);
      await refused(fileObjectUrl(ctx(), store, sharee.id, file.id, 'thumbnail'), 404);
      await share(owner.id, album.id, sharee.email);
      const url = await fileObjectUrl(ctx(), store, sharee.id, file.id, 'thumbnail');
      assert.ok(decodeURIComponent(url).includes(`/${String(file.thumbnail.objectKey)}?`), url);
      await refused(fileObjectUrl(ctx(), store, stranger.id, file.id, 'file'), 404);
      await collections.unshareCollection(ctx(), owner.id, { collectionID: album.id, email: sharee.email });
      await refused(fileObjectUrl(ctx(), store, sharee.id, file.id, 'file'), 404);
    });

    test('the quota: upload URLs and files past it (and its 50 MB grace) are 426', async () => {
      const owner = await newUser();
      const quota = 10 * 1024 * 1024 + 50 * 1024 * 1024;
      await refused(uploadUrl(ctx(), store, owner.id, { contentLength: quota + 1, contentMD5: b64(16) }), 426);
      await uploadUrl(ctx(), store, owner.id, { contentLength: quota, contentMD5: b64(16) });
      assert.deepEqual(await storageOf(ctx(), owner.id), { usage: 0, fileCount: 0 });
    });

    test('magic metadata: the stored version must match (409 otherwise), it grows by one, and the diffs hand the file out again', async () => {
      const [owner, sharee, stranger] = [await newUser(), await newUser(), await newUser()];
      const album = await newAlbum(owner.id);
      await share(owner.id, album.id, sharee.email);
      const file = await newFile(owner.id, album.id);
      await refused(updateMagicMetadata(ctx(), owner.id, [{ id: file.id, magicMetadata: magic(2) }], 'public'), 409);
      await refused(updateMagicMetadata(ctx(), stranger.id, [{ id: file.id, magicMetadata: magic(1) }], 'public'), 403);
      await refused(
        updateMagicMetadata(ctx(), owner.id, [{ id: 999_999_999, magicMetadata: magic(1) }], 'public'),
        404,
      );
      await updateMagicMetadata(ctx(), owner.id, [{ id: file.id, magicMetadata: magic(1, 2) }], 'public');
      await updateMagicMetadata(ctx(), owner.id, [{ id: file.id, magicMetadata: magic(0) }], 'private');
      const { diff } = await collectionDiff(ctx(), sharee.id, album.id, file.updationTime);
      assert.equal(diff.length, 1);
      const [entry] = diff;
      assert.ok(entry);
      assert.deepEqual(entry.pubMagicMetadata, magic(2, 2));
      assert.equal(entry.magicMetadata, undefined, 'a sharee does not get the private metadata');
      const [own] = (await collectionDiff(ctx(), owner.id, album.id, 0)).diff;
      assert.deepEqual(own?.magicMetadata, magic(1));
      const [listed] = await collections.collectionsOf(ctx(), sharee.id, 'photos', 0);
      assert.ok(listed && listed.updationTime >= entry.updationTime, 'the collection time covers the change');
    });
  });

  describe('the diff', () => {
    test('pages of 2,500 never split one change; a change larger than a page comes whole', async () => {
      const owner = await newUser();
      const album = await newAlbum(owner.id);
      const { ctx: c } = testContext();
      // Files are made in bulk (only their rows matter here), then added in three changes.
      const ids = await bulkFiles(owner.id, 3000);
      await collections.addFiles(c, owner.id, 'photos', {
        collectionID: album.id,
        files: ids.slice(0, 2000).map(keyItem),
      });
      await collections.addFiles(c, owner.id, 'photos', {
        collectionID: album.id,
        files: ids.slice(2000, 2600).map(keyItem),
      });
      await collections.addFiles(c, owner.id, 'photos', {
        collectionID: album.id,
        files: ids.slice(2600).map(keyItem),
      });
      const first = await collectionDiff(c, owner.id, album.id, 0);
      assert.equal(first.hasMore, true);
      assert.equal(first.diff.length, 2000, 'the second change (rows 2001–2600) waits whole for the next page');
      const cursor = Math.max(...first.diff.map((f) => f.updationTime));
      const second = await collectionDiff(c, owner.id, album.id, cursor);
      assert.equal(second.diff.length, 1000);
      assert.equal(second.hasMore, false);
    });

    test('concurrent writers: a reader polling with its cursor sees every file in the end', async () => {
      const owner = await newUser();
      const album = await newAlbum(owner.id);
      const c = testContext().ctx;
      const ids = await bulkFiles(owner.id, 60);
      const seen = new Set<number>();
      let cursor = 0;
      const state = { writing: true };
      const reader = (async () => {
        for (;;) {
          const done = !state.writing;
          const page = await collectionDiff(c, owner.id, album.id, cursor);
          for (const file of page.diff) seen.add(file.id);
          cursor = Math.max(cursor, ...page.diff.map((f: PhotoFile) => f.updationTime));
          if (done && !page.hasMore) return;
        }
      })();
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          collections.addFiles(c, owner.id, 'photos', {
            collectionID: album.id,
            files: ids.slice(i * 5, i * 5 + 5).map(keyItem),
          }),
        ),
      );
      state.writing = false;
      await reader;
      assert.deepEqual([...seen].sort(), [...ids].sort());
    });

    test('concurrent writers to several albums: a sharee polling the list with its cursor sees every last name', async () => {
      const [owner, sharee] = [await newUser(), await newUser()];
      const albums = [];
      for (let i = 0; i < 6; i++) {
        const album = await newAlbum(owner.id);
        await share(owner.id, album.id, sharee.email);
        albums.push(album);
      }
      const c = testContext().ctx;
      const names = new Map<number, string>();
      let cursor = 0;
      const state = { writing: true };
      const reader = (async () => {
        for (;;) {
          const done = !state.writing;
          const changed = await collections.collectionsOf(c, sharee.id, 'photos', cursor);
          for (const album of changed) names.set(album.id, album.encryptedName);
          cursor = Math.max(cursor, ...changed.map((album) => album.updationTime));
          if (done) return;
        }
      })();
      await Promise.all(
        albums.flatMap((album, i) =>
          [1, 2, 3].map((round) =>
            collections.renameCollection(c, owner.id, {
              collectionID: album.id,
              encryptedName: b64(20 + round, i + 1),
              nameDecryptionNonce: b64(24),
            }),
          ),
        ),
      );
      state.writing = false;
      await reader;
      const final = await collections.collectionsOf(c, sharee.id, 'photos', 0);
      for (const album of final) assert.equal(names.get(album.id), album.encryptedName);
    });

    /** `count` files of the owner made directly in the database (no objects: only their rows matter here). */
    async function bulkFiles(ownerID: number, count: number): Promise<number[]> {
      const now = Date.now() * 1000;
      const rows = await testContext()
        .ctx.db.insertInto('files')
        .values(
          Array.from({ length: count }, (_, i) => ({
            owner_id: ownerID,
            file_object_key: `${String(ownerID)}/bulk-${String(now)}-${String(i)}`,
            file_decryption_header: b64(24),
            file_size: 1,
            thumbnail_object_key: `${String(ownerID)}/bulk-thumb-${String(now)}-${String(i)}`,
            thumbnail_decryption_header: b64(24),
            thumbnail_size: 1,
            encrypted_metadata: b64(30),
            metadata_decryption_header: b64(24),
            magic_metadata: null,
            pub_magic_metadata: null,
            created_at: now,
            updation_time: now,
          })),
        )
        .returning('file_id')
        .execute();
      return rows.map((row) => Number(row.file_id));
    }
  });
});
