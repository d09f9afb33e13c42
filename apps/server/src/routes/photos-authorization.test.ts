// Nothing the client sends is trusted, over HTTP: every id in a photos request is checked against the
// caller. A second account sends each photos route the ids of the first account's album, file and objects (alone, or mixed with
// valid ids of its own, in random order and combination): each answer is 403 or 404 (400 where the
// request is malformed for the caller anyway), and nothing of the first account changes, not even the
// times its clients sync by.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, test } from 'node:test';

import fc from 'fast-check';

import type { Collection, PhotoFile, UploadUrlResponse } from '@ente/protocol';

import type { ApiClient } from '../testing/client.ts';
import { signUp, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const b64 = (bytes: number, fill = 1) => Buffer.alloc(bytes, fill).toString('base64');

interface Owned {
  account: Account;
  client: ApiClient;
  albumID: number;
  file: PhotoFile;
}

describe("photos: another account's ids", () => {
  const { server, api } = suiteServer();
  let victim: Owned;
  let attacker: Owned;

  async function upload(client: ApiClient, bytes: Buffer): Promise<string> {
    const md5 = createHash('md5').update(bytes).digest('base64');
    const answer = await client.post<UploadUrlResponse>('/files/upload-url', {
      contentLength: bytes.length,
      contentMD5: md5,
    });
    assert.equal(answer.status, 200, answer.text);
    const put = await fetch(answer.body.url, { method: 'PUT', body: bytes, headers: { 'Content-MD5': md5 } });
    assert.equal(put.status, 200);
    return answer.body.objectKey;
  }

  async function fileBody(client: ApiClient, collectionID: number) {
    return {
      collectionID,
      encryptedKey: b64(48),
      keyDecryptionNonce: b64(24),
      file: { objectKey: await upload(client, Buffer.from('file bytes')), decryptionHeader: b64(24) },
      thumbnail: { objectKey: await upload(client, Buffer.from('thumbnail')), decryptionHeader: b64(24) },
      metadata: { encryptedData: b64(40), decryptionHeader: b64(24) },
      pubMagicMetadata: { version: 1, count: 1, data: b64(30), header: b64(24) },
    };
  }

  async function owned(): Promise<Owned> {
    const client = api.as('io.ente.photos.web');
    const account = await signUp(client, server.mail, { srp: false });
    const album = await client.post<{ collection: Collection }>('/collections', {
      encryptedKey: b64(48),
      keyDecryptionNonce: b64(24),
      encryptedName: b64(20),
      nameDecryptionNonce: b64(24),
      type: 'album',
    });
    assert.equal(album.status, 200, album.text);
    const albumID = album.body.collection.id;
    const file = await client.post<PhotoFile>('/files', await fileBody(client, albumID));
    assert.equal(file.status, 200, file.text);
    return { account, client, albumID, file: file.body };
  }

  /** What the victim's clients would sync: the list, the album's diff, the file's two downloads. */
  async function victimState() {
    const list = await victim.client.get('/collections/v2');
    const diff = await victim.client.get('/collections/v2/diff', { query: { collectionID: victim.albumID } });
    const details = await victim.client.get('/users/details/v2', { query: { memoryCount: 'true' } });
    const trash = await victim.client.get('/trash/v2/diff');
    return { list: list.body, diff: diff.body, usage: [details.body.usage, details.body.fileCount], trash: trash.body };
  }

  before(async () => {
    victim = await owned();
    attacker = await owned();
  });

  /** One request of the attacker's naming the victim's ids (or its own where `own` says so). */
  type Attempt = (ids: { album: number; file: number; otherAlbum: number; otherFile: number }) => Promise<number>;

  const key = (fileID: number) => ({ id: fileID, encryptedKey: b64(48), keyDecryptionNonce: b64(24) });
  const move = async (fromCollectionID: number, toCollectionID: number, fileID: number) => {
    const body = { fromCollectionID, toCollectionID, files: [key(fileID)] };
    return (await attacker.client.post('/collections/move-files', body)).status;
  };
  const magic = { version: 1, count: 1, data: b64(30), header: b64(24) };
  const attempts: Record<string, Attempt> = {
    'diff of their album': async ({ album }) =>
      (await attacker.client.get('/collections/v2/diff', { query: { collectionID: album } })).status,
    'rename their album': async ({ album }) =>
      (
        await attacker.client.post('/collections/rename', {
          collectionID: album,
          encryptedName: b64(20),
          nameDecryptionNonce: b64(24),
        })
      ).status,
    'add a file to their album': async ({ album, otherFile }) =>
      (await attacker.client.post('/collections/add-files', { collectionID: album, files: [key(otherFile)] })).status,
    'add their file to mine': async ({ file, otherAlbum }) =>
      (await attacker.client.post('/collections/add-files', { collectionID: otherAlbum, files: [key(file)] })).status,
    'restore their file into mine': async ({ file, otherAlbum }) =>
      (await attacker.client.post('/collections/restore-files', { collectionID: otherAlbum, files: [key(file)] }))
        .status,
    'move their file out of their album': async ({ album, file, otherAlbum }) => move(album, otherAlbum, file),
    'move my file into their album': async ({ album, otherFile, otherAlbum }) => move(otherAlbum, album, otherFile),
    'remove their file from their album': async ({ album, file }) =>
      (await attacker.client.post('/collections/v3/remove-files', { collectionID: album, fileIDs: [file] })).status,
    'delete their album': async ({ album }) =>
      (await attacker.client.delete(`/collections/v3/${String(album)}`, { query: { keepFiles: 'false' } })).status,
    'share their album with me': async ({ album }) =>
      (
        await attacker.client.post('/collections/share', {
          collectionID: album,
          email: attacker.account.email,
          role: 'COLLABORATOR',
          encryptedKey: b64(80),
        })
      ).status,
    'unshare their album': async ({ album }) =>
      (await attacker.client.post('/collections/unshare', { collectionID: album, email: victim.account.email })).status,
    "set their album's metadata": async ({ album }) =>
      (await attacker.client.put('/collections/magic-metadata', { id: album, magicMetadata: magic })).status,
    "set their album's public metadata": async ({ album }) =>
      (await attacker.client.put('/collections/public-magic-metadata', { id: album, magicMetadata: magic })).status,
    "set a sharee's metadata of their album": async ({ album }) =>
      (await attacker.client.put('/collections/sharee-magic-metadata', { id: album, magicMetadata: magic })).status,
    'download their file': async ({ file }) => (await attacker.client.get(`/files/download/${String(file)}`)).status,
    'preview their file': async ({ file }) => (await attacker.client.get(`/files/preview/${String(file)}`)).status,
    "ask for their file's derived data": async ({ file }) =>
      (
        await attacker.client.get('/files/data/fetch', {
          query: { type: 'vid_preview', fileID: file, preferNoContent: 'true' },
        })
      ).status,
    "set their file's metadata": async ({ file }) =>
      (await attacker.client.put('/files/magic-metadata', { metadataList: [{ id: file, magicMetadata: magic }] }))
        .status,
    "set their file's public metadata": async ({ file, otherFile }) =>
      (
        await attacker.client.put('/files/public-magic-metadata', {
          metadataList: [
            { id: otherFile, magicMetadata: magic },
            { id: file, magicMetadata: magic },
          ],
        })
      ).status,
    'upload a file into their album': async ({ album }) =>
      (await attacker.client.post('/files', await fileBody(attacker.client, album))).status,
    'make a file of their objects': async ({ otherAlbum }) =>
      (
        await attacker.client.post('/files', {
          ...(await fileBody(attacker.client, otherAlbum)),
          file: { objectKey: victim.file.file.objectKey, decryptionHeader: b64(24) },
          thumbnail: { objectKey: victim.file.thumbnail.objectKey, decryptionHeader: b64(24) },
        })
      ).status,
    // Trash and public links (routes/trash.ts, routes/public-links.ts).
    'trash their file': async ({ album, file }) =>
      (await attacker.client.post('/files/trash', { items: [{ fileID: file, collectionID: album }] })).status,
    'trash their file from my album': async ({ file, otherAlbum }) =>
      (await attacker.client.post('/files/trash', { items: [{ fileID: file, collectionID: otherAlbum }] })).status,
    'trash my file from their album': async ({ album, otherFile }) =>
      (await attacker.client.post('/files/trash', { items: [{ fileID: otherFile, collectionID: album }] })).status,
    'delete their file for ever': async ({ file }) =>
      (await attacker.client.post('/trash/delete', { fileIDs: [file] })).status,
    'make a public link to their album': async ({ album }) =>
      (await attacker.client.post('/collections/share-url', { collectionID: album })).status,
    "change their album's public link": async ({ album }) =>
      (await attacker.client.put('/collections/share-url', { collectionID: album, deviceLimit: 1 })).status,
    "remove their album's public link": async ({ album }) =>
      (await attacker.client.delete(`/collections/share-url/${String(album)}`)).status,
    'their file through my public link': async ({ file, otherAlbum }) => {
      const link = await attacker.client.post<{ result: { url: string } }>('/collections/share-url', {
        collectionID: otherAlbum,
      });
      const headers = { 'X-Auth-Access-Token': new URL(link.body.result.url).searchParams.get('t') ?? '' };
      return (await attacker.client.get(`/public-collection/files/download/${String(file)}`, { headers })).status;
    },
  };

  async function attemptAll(names: readonly string[]) {
    for (const name of names) {
      const status = await attempts[name]?.({
        album: victim.albumID,
        file: victim.file.id,
        otherAlbum: attacker.albumID,
        otherFile: attacker.file.id,
      });
      assert.ok(status === 403 || status === 404, `${name}: ${String(status)}`);
    }
  }

  test('each route refuses them with 403 or 404 and changes nothing of theirs', async () => {
    const before = await victimState();
    await attemptAll(Object.keys(attempts));
    assert.deepEqual(await victimState(), before, 'the victim sees no change');
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(Object.keys(attempts), { minLength: 1 }), async (names) => {
        await attemptAll(names);
        assert.deepEqual(await victimState(), before, 'the victim sees no change');
      }),
      { numRuns: 6 },
    );
  });

  test('leaving an album one was never in is a success that changes nothing', async () => {
    const before = await victimState();
    const left = await attacker.client.post(`/collections/leave/${String(victim.albumID)}`);
    assert.equal(left.status, 200);
    assert.deepEqual(await victimState(), before);
  });
});
