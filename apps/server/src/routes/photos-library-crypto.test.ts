// What the photos app's library decrypts and writes, against the real server: the crypto API's batch methods
// (packages/crypto/src/photos-library.ts, which the app's library calls in its crypto worker) open what the
// server answers to the owner and to a sharee, and what they write is what another client (the scripted
// photos client, plain libsodium) reads back: a new album's key and name, a rename, file keys boxed for
// another album, a key sealed to a sharee, and a link password hashed for viewers. The app's own sync
// (paging, cache, the model) is exercised in apps/photos (library.test.ts, against an in-memory server).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { cryptoAPI } from '@ente/crypto/api.ts';
import type { Collection, PhotoFile, PublicLink } from '@ente/protocol';

import { base58Encode, LinkVisitor, PhotosClient } from '../testing/photos-client.ts';
import { suiteServer } from '../testing/server.ts';

const original = (title: string) => ({
  bytes: new TextEncoder().encode(`the bytes of ${title}`),
  thumbnail: new TextEncoder().encode(`the thumbnail of ${title}`),
  metadata: { title, creationTime: 1_700_000_000_000_000, modificationTime: 1_700_000_000_000_000, fileType: 0 },
});

/** The keys the library opens collections with: the masterKey and the key pair of the key attributes. */
function userKeys(client: PhotosClient) {
  const { masterKey, keyAttributes } = client.account.keys;
  const { publicKey, encryptedSecretKey, secretKeyDecryptionNonce } = keyAttributes;
  return { masterKey, publicKey, encryptedSecretKey, secretKeyDecryptionNonce };
}

async function collections(client: PhotosClient): Promise<Collection[]> {
  const listed = await client.api.get<{ collections: Collection[] }>('/collections/v2', { query: { sinceTime: 0 } });
  assert.equal(listed.status, 200, listed.text);
  return listed.body.collections;
}

describe("the photos app's library crypto against the server", () => {
  const { server, api } = suiteServer();

  test('owner and sharee open the albums and files the server answers; the writes read back elsewhere', async () => {
    const storeOrigin = new URL(server.url).origin;
    const owner = await PhotosClient.signUp(api, server.mail, storeOrigin);
    const sharee = await PhotosClient.signUp(api, server.mail, storeOrigin);

    // A new album as the library makes it: its key boxed with the masterKey, its name boxed with its key.
    const { key, ...fields } = await cryptoAPI.newCollectionKeys('Été 2026', owner.account.keys.masterKey);
    const created = await owner.api.post<{ collection: Collection }>('/collections', { ...fields, type: 'album' });
    assert.equal(created.status, 200, created.text);
    const album = { id: created.body.collection.id, key };
    assert.deepEqual(
      (await owner.albums()).map(({ id, name }) => ({ id, name })),
      [{ id: album.id, name: 'Été 2026' }],
    );

    const renamed = await owner.api.post('/collections/rename', {
      collectionID: album.id,
      ...(await cryptoAPI.encryptCollectionName('Summer 2026', key)),
    });
    assert.equal(renamed.status, 200, renamed.text);
    const uploaded = await owner.addFile(album, original('a.jpg'));

    // Shared by sealing the key as the library does; the sharee's list opens with their key pair.
    const publicKey = await owner.api.get<{ publicKey: string }>('/users/public-key', {
      query: { email: sharee.email },
    });
    assert.equal(publicKey.status, 200, publicKey.text);
    const shared = await owner.api.post('/collections/share', {
      collectionID: album.id,
      email: sharee.email,
      role: 'VIEWER',
      encryptedKey: await cryptoAPI.sealCollectionKey(key, publicKey.body.publicKey),
    });
    assert.equal(shared.status, 200, shared.text);

    for (const client of [owner, sharee]) {
      const rows = await collections(client);
      const opened = await cryptoAPI.openCollections(rows, userKeys(client));
      assert.deepEqual(
        opened.map((entry) => entry && { key: entry.key, name: entry.name }),
        [{ key, name: 'Summer 2026' }],
      );
      const files: PhotoFile[] = await client.albumDiff(album.id);
      const [file] = await cryptoAPI.openFiles(files, key);
      assert.deepEqual(file?.metadata, uploaded.original.metadata);
    }
    // Under another user's keys nothing opens, and the batch still answers.
    assert.deepEqual(await cryptoAPI.openCollections(await collections(sharee), userKeys(owner)), [null]);
  });

  test('a file key boxed for another album opens there; a link password hashed by the library lets a viewer in', async () => {
    const storeOrigin = new URL(server.url).origin;
    const owner = await PhotosClient.signUp(api, server.mail, storeOrigin);
    const first = await owner.createAlbum('First');
    const second = await owner.createAlbum('Second');
    const uploaded = await owner.addFile(first, original('b.jpg'));
    const [opened] = await cryptoAPI.openFiles(await owner.albumDiff(first.id), first.key);
    assert.ok(opened);

    const files = await cryptoAPI.boxFileKeys([{ id: uploaded.file.id, key: opened.key }], second.key);
    const added = await owner.api.post('/collections/add-files', { collectionID: second.id, files });
    assert.equal(added.status, 200, added.text);
    const [entry] = await owner.albumDiff(second.id);
    assert.ok(entry);
    assert.deepEqual((await owner.openFile(entry, second)).bytes, uploaded.original.bytes);

    const made = await owner.api.post<{ result: PublicLink }>('/collections/share-url', { collectionID: second.id });
    assert.equal(made.status, 200, made.text);
    const password = await cryptoAPI.hashLinkPassword('open sesame');
    const locked = await owner.api.put<{ result: PublicLink }>('/collections/share-url', {
      collectionID: second.id,
      ...password,
    });
    assert.equal(locked.status, 200, locked.text);
    const link = `${made.body.result.url}#${base58Encode(Buffer.from(second.key, 'base64'))}`;
    const visitor = await LinkVisitor.open(server.url, storeOrigin, link, 'open sesame');
    const [seen] = await visitor.diff();
    assert.ok(seen);
    assert.deepEqual((await visitor.openFile(seen)).bytes, uploaded.original.bytes);
  });
});
