// A scripted photos client for the HTTP tests: what a client of its own does with libsodium (@ente/crypto)
// and the wire contract only (docs/protocol.md#photos, #trash, #public-links). Albums whose key is boxed
// with the master key; files encrypted under a key of their own and uploaded to the signed URLs (single or
// multipart); the list and the diff opened back; downloads followed through the 307; an album shared by
// sealing its key to the sharee's public key; a password link opened by someone without an account (the
// collection key in the URL's fragment, base58 as Ente's clients write it); the trash. Every step asserts
// the status a client relies on, so that a test reads as the story of its steps.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';

import {
  decryptBlobBytes,
  decryptBoxB64,
  decryptBoxBytes,
  deriveKeyB64,
  encryptBlobB64,
  encryptBoxB64,
  generateKeyB64,
  openSealedBoxBytes,
  randomBytes,
  SALT_BYTES,
  sealBoxB64,
  toB64,
  utf8Bytes,
  utf8String,
} from '@ente/crypto';
import type {
  Collection,
  CollectionDiffResponse,
  CreateFileRequest,
  MultipartUploadUrlResponse,
  PhotoFile,
  PublicKeyResponse,
  PublicLink,
  TrashDiffResponse,
  TrashEntry,
  UploadUrlResponse,
  UserDetailsResponse,
} from '@ente/protocol';

import type { ApiClient } from './client.ts';
import { signUp, type Account } from './flows.ts';
import type { CapturingMailer } from './server.ts';

export const md5Of = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('base64');
const bytesOfB64 = (b64: string) => new Uint8Array(Buffer.from(b64, 'base64'));

/** An album as its client knows it: the id and the collection key (base64). */
export interface Album {
  id: number;
  key: string;
}

/** What a client encrypts for one file, and must get back from the server's ciphertext. */
export interface Original {
  bytes: Uint8Array;
  thumbnail: Uint8Array;
  metadata: Record<string, unknown>;
}

export interface UploadedFile {
  file: PhotoFile;
  request: CreateFileRequest;
  original: Original;
}

/** GETs an object's route, checks its 307 leads to the store, and answers the object's bytes. */
export async function followDownload(url: URL, headers: Record<string, string>, storeOrigin: string) {
  const redirect = await fetch(url, { redirect: 'manual', headers });
  assert.equal(redirect.status, 307, await redirect.text());
  const location = new URL(redirect.headers.get('location') ?? '', url);
  assert.equal(location.origin, storeOrigin, 'the 307 leads to the store');
  const object = await fetch(location);
  assert.equal(object.status, 200, location.pathname);
  return new Uint8Array(await object.arrayBuffer());
}

/** Opens a diff entry with its collection's key: the file key, then the metadata, file and thumbnail. */
export async function openFile(
  entry: PhotoFile,
  collectionKey: string,
  fetchObject: (kind: 'download' | 'preview') => Promise<Uint8Array>,
): Promise<Original> {
  const fileKey = await decryptBoxB64(
    { encryptedData: entry.encryptedKey, nonce: entry.keyDecryptionNonce },
    collectionKey,
  );
  const open = async (bytes: Uint8Array, header: string) =>
    decryptBlobBytes({ encryptedData: toB64(bytes), header }, fileKey);
  const metadata = await open(bytesOfB64(entry.metadata.encryptedData ?? ''), entry.metadata.decryptionHeader);
  return {
    bytes: await open(await fetchObject('download'), entry.file.decryptionHeader),
    thumbnail: await open(await fetchObject('preview'), entry.thumbnail.decryptionHeader),
    metadata: JSON.parse(utf8String(metadata)) as Record<string, unknown>,
  };
}

export class PhotosClient {
  readonly api: ApiClient;
  readonly account: Account;
  /** The origin a download's 307 must lead to: the API's (embedded store) or the S3 endpoint. */
  readonly storeOrigin: string;

  constructor(api: ApiClient, account: Account, storeOrigin: string) {
    this.api = api;
    this.account = account;
    this.storeOrigin = storeOrigin;
  }

  /** A new photos account (signed up with its key attributes), as a client of the photos app. */
  static async signUp(api: ApiClient, mail: CapturingMailer, storeOrigin: string): Promise<PhotosClient> {
    const client = api.as('io.ente.photos.web');
    return new PhotosClient(client, await signUp(client, mail, { srp: false }), storeOrigin);
  }

  get email(): string {
    return this.account.email;
  }

  async createAlbum(name: string): Promise<Album> {
    const key = await generateKeyB64();
    const boxedKey = await encryptBoxB64(key, this.account.keys.masterKey);
    const boxedName = await encryptBoxB64(utf8Bytes(name), key);
    const created = await this.api.post<{ collection: Collection }>('/collections', {
      encryptedKey: boxedKey.encryptedData,
      keyDecryptionNonce: boxedKey.nonce,
      encryptedName: boxedName.encryptedData,
      nameDecryptionNonce: boxedName.nonce,
      type: 'album',
    });
    assert.equal(created.status, 200, created.text);
    return { id: created.body.collection.id, key };
  }

  /** Uploads bytes through the signed URL(s) the server hands out (multipart when `partLength` is given). */
  async uploadObject(bytes: Uint8Array, partLength?: number): Promise<string> {
    if (partLength === undefined) {
      const answer = await this.api.post<UploadUrlResponse>('/files/upload-url', {
        contentLength: bytes.length,
        contentMD5: md5Of(bytes),
      });
      assert.equal(answer.status, 200, answer.text);
      await putObject(answer.body.url, bytes);
      return answer.body.objectKey;
    }
    const parts: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += partLength) parts.push(bytes.subarray(at, at + partLength));
    const answer = await this.api.post<MultipartUploadUrlResponse>('/files/multipart-upload-url', {
      contentLength: bytes.length,
      partLength,
      partMd5s: parts.map(md5Of),
    });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.partURLs.length, parts.length);
    const etags = [];
    for (const [index, part] of parts.entries()) etags.push(await putObject(answer.body.partURLs[index] ?? '', part));
    const completion = etags
      .map((etag, index) => `<Part><PartNumber>${String(index + 1)}</PartNumber><ETag>${etag}</ETag></Part>`)
      .join('');
    const done = await fetch(answer.body.completeURL, {
      method: 'POST',
      body: `<CompleteMultipartUpload>${completion}</CompleteMultipartUpload>`,
      headers: { 'Content-Type': 'text/xml' },
    });
    assert.equal(done.status, 200, await done.text());
    return answer.body.objectKey;
  }

  /** POST /files' body for `original` in `album`: a file key boxed with the album's, the rest under it. */
  async encryptFile(album: Album, original: Original, partLength?: number): Promise<CreateFileRequest> {
    const fileKey = await generateKeyB64();
    const boxedKey = await encryptBoxB64(fileKey, album.key);
    const data = await encryptBlobB64(original.bytes, fileKey);
    const thumbnail = await encryptBlobB64(original.thumbnail, fileKey);
    const metadata = await encryptBlobB64(utf8Bytes(JSON.stringify(original.metadata)), fileKey);
    const object = async (b64: string, header: string, parts?: number) => {
      const bytes = bytesOfB64(b64);
      return { objectKey: await this.uploadObject(bytes, parts), decryptionHeader: header, size: bytes.length };
    };
    return {
      collectionID: album.id,
      encryptedKey: boxedKey.encryptedData,
      keyDecryptionNonce: boxedKey.nonce,
      file: await object(data.encryptedData, data.header, partLength),
      thumbnail: await object(thumbnail.encryptedData, thumbnail.header),
      metadata: { encryptedData: metadata.encryptedData, decryptionHeader: metadata.header },
    };
  }

  /** Encrypts, uploads and confirms a file with POST /files. */
  async addFile(album: Album, original: Original, partLength?: number): Promise<UploadedFile> {
    const request = await this.encryptFile(album, original, partLength);
    const made = await this.api.post<PhotoFile>('/files', request);
    assert.equal(made.status, 200, made.text);
    assert.equal(made.body.file.objectKey, request.file.objectKey);
    return { file: made.body, request, original };
  }

  /** Every album listed to this account, its key opened (boxed for the owner, sealed for a sharee). */
  async albums(): Promise<(Album & { name: string; collection: Collection })[]> {
    const listed = await this.api.get<{ collections: Collection[] }>('/collections/v2', { query: { sinceTime: 0 } });
    assert.equal(listed.status, 200, listed.text);
    const { keys } = this.account;
    const secretKey = await decryptBoxB64(
      { encryptedData: keys.keyAttributes.encryptedSecretKey, nonce: keys.keyAttributes.secretKeyDecryptionNonce },
      keys.masterKey,
    );
    return Promise.all(
      listed.body.collections.map(async (collection) => {
        const { encryptedKey, keyDecryptionNonce } = collection;
        const key = toB64(
          keyDecryptionNonce
            ? await decryptBoxBytes({ encryptedData: encryptedKey, nonce: keyDecryptionNonce }, keys.masterKey)
            : await openSealedBoxBytes(encryptedKey, keys.keyAttributes.publicKey, secretKey),
        );
        const box = { encryptedData: collection.encryptedName, nonce: collection.nameDecryptionNonce };
        return { id: collection.id, key, name: utf8String(await decryptBoxBytes(box, key)), collection };
      }),
    );
  }

  /** The album's diff after `sinceTime` (one page: these tests' albums are small). */
  async albumDiff(collectionID: number, sinceTime = 0): Promise<PhotoFile[]> {
    const diff = await this.api.get<CollectionDiffResponse>('/collections/v2/diff', {
      query: { collectionID, sinceTime },
    });
    assert.equal(diff.status, 200, diff.text);
    assert.equal(diff.body.hasMore, false);
    return diff.body.diff;
  }

  /** The ids of the files the album holds now, in order. */
  async albumFileIDs(collectionID: number): Promise<number[]> {
    const live = (await this.albumDiff(collectionID)).filter((entry) => !entry.isDeleted);
    return live.map((entry) => entry.id).sort((a, b) => a - b);
  }

  /** A file's object or thumbnail through the 307, with the token in the query as an <img> sends it. */
  async fetchObject(fileID: number, kind: 'download' | 'preview'): Promise<Uint8Array> {
    const url = new URL(`/files/${kind}/${String(fileID)}`, this.api.baseUrl);
    url.searchParams.set('token', this.account.token);
    return followDownload(url, { 'X-Client-Package': this.api.clientPackage }, this.storeOrigin);
  }

  /** A diff entry opened and downloaded back to its original. */
  openFile(entry: PhotoFile, album: Album): Promise<Original> {
    return openFile(entry, album.key, (kind) => this.fetchObject(entry.id, kind));
  }

  /** Shares the album with another account: its key sealed to their public key. */
  async shareAlbum(album: Album, email: string, role: 'VIEWER' | 'COLLABORATOR' = 'VIEWER') {
    const publicKey = await this.api.get<PublicKeyResponse>('/users/public-key', { query: { email } });
    assert.equal(publicKey.status, 200, publicKey.text);
    const shared = await this.api.post<{ sharees: { email: string; role: string }[] }>('/collections/share', {
      collectionID: album.id,
      email,
      role,
      encryptedKey: await sealBoxB64(album.key, publicKey.body.publicKey),
    });
    assert.equal(shared.status, 200, shared.text);
    return shared.body.sharees;
  }

  /**
   * A link to the album protected by `password`, as the owner hands it out: the server's URL with the
   * album key in its fragment. The hash is Argon2id(password, salt, limits) at libsodium's smallest limits
   * (crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN), which the server accepts, to keep tests fast.
   */
  async makePasswordLink(album: Album, password: string): Promise<string> {
    const made = await this.api.post<{ result: PublicLink }>('/collections/share-url', { collectionID: album.id });
    assert.equal(made.status, 200, made.text);
    const [nonce, opsLimit, memLimit] = [toB64(await randomBytes(SALT_BYTES)), 1, 8192];
    const passHash = await deriveKeyB64(password, nonce, opsLimit, memLimit);
    const protectedLink = await this.api.put<{ result: PublicLink }>('/collections/share-url', {
      collectionID: album.id,
      passHash,
      nonce,
      opsLimit,
      memLimit,
    });
    assert.equal(protectedLink.status, 200, protectedLink.text);
    assert.equal(protectedLink.body.result.passwordEnabled, true);
    return `${made.body.result.url}#${base58Encode(bytesOfB64(album.key))}`;
  }

  async trashFiles(collectionID: number, fileIDs: number[]): Promise<void> {
    const items = fileIDs.map((fileID) => ({ fileID, collectionID }));
    const trashed = await this.api.post('/files/trash', { items });
    assert.equal(trashed.status, 200, trashed.text);
  }

  async trashDiff(sinceTime = 0): Promise<TrashEntry[]> {
    const diff = await this.api.get<TrashDiffResponse>('/trash/v2/diff', { query: { sinceTime } });
    assert.equal(diff.status, 200, diff.text);
    assert.equal(diff.body.hasMore, false);
    return diff.body.diff;
  }

  /** Restores trash entries into `album`: each file key taken from the trash, boxed again with the album's. */
  async restore(album: Album, entries: TrashEntry[], trashedFrom: Album): Promise<void> {
    const files = await Promise.all(
      entries.map(async ({ file }) => {
        const fileKey = await decryptBoxB64(
          { encryptedData: file.encryptedKey, nonce: file.keyDecryptionNonce },
          trashedFrom.key,
        );
        const boxed = await encryptBoxB64(fileKey, album.key);
        return { id: file.id, encryptedKey: boxed.encryptedData, keyDecryptionNonce: boxed.nonce };
      }),
    );
    const restored = await this.api.post('/collections/restore-files', { collectionID: album.id, files });
    assert.equal(restored.status, 200, restored.text);
  }

  async deleteForever(fileIDs: number[]): Promise<void> {
    const deleted = await this.api.post('/trash/delete', { fileIDs });
    assert.equal(deleted.status, 200, deleted.text);
  }

  async details(): Promise<UserDetailsResponse> {
    const details = await this.api.get<UserDetailsResponse>('/users/details/v2', { query: { memoryCount: 'true' } });
    assert.equal(details.status, 200, details.text);
    return details.body;
  }
}

/** PUTs bytes to a signed URL with their Content-MD5; answers the ETag. */
async function putObject(url: string, bytes: Uint8Array): Promise<string> {
  const put = await fetch(url, { method: 'PUT', body: bytes, headers: { 'Content-MD5': md5Of(bytes) } });
  assert.equal(put.status, 200, await put.text());
  return put.headers.get('etag') ?? '';
}

/** Someone without an account who was given a link (and its password): what they can see of the album. */
export class LinkVisitor {
  readonly album: Album;
  readonly headers: Record<string, string>;
  private readonly serverUrl: string;
  private readonly storeOrigin: string;

  private constructor(serverUrl: string, storeOrigin: string, album: Album, headers: Record<string, string>) {
    this.serverUrl = serverUrl;
    this.storeOrigin = storeOrigin;
    this.album = album;
    this.headers = headers;
  }

  /**
   * Opens a password link: the access token from its query, the album key from its fragment (never sent),
   * the salt and limits from /public-collection/info, the hash verified for the token that opens the rest.
   */
  static async open(serverUrl: string, storeOrigin: string, link: string, password: string): Promise<LinkVisitor> {
    const url = new URL(link);
    const accessToken = url.searchParams.get('t') ?? '';
    const headers = { 'X-Client-Package': 'io.ente.photos.web', 'X-Auth-Access-Token': accessToken };
    const info = await fetch(new URL('/public-collection/info', serverUrl), { headers });
    assert.equal(info.status, 200);
    const { collection } = (await info.json()) as { collection: { id: number; publicURLs: PublicLink[] } };
    const [settings] = collection.publicURLs;
    assert.ok(settings?.passwordEnabled && settings.nonce && settings.opsLimit && settings.memLimit);
    const passHash = await deriveKeyB64(password, settings.nonce, settings.opsLimit, settings.memLimit);
    const verified = await fetch(new URL('/public-collection/verify-password', serverUrl), {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ passHash }),
    });
    assert.equal(verified.status, 200);
    const { jwtToken } = (await verified.json()) as { jwtToken: string };
    const album = { id: collection.id, key: toB64(base58Decode(url.hash.slice(1))) };
    return new LinkVisitor(serverUrl, storeOrigin, album, { ...headers, 'X-Auth-Access-Token-JWT': jwtToken });
  }

  /** GETs a viewer's route with this visitor's tokens. */
  get(path: string): Promise<Response> {
    return fetch(new URL(path, this.serverUrl), { headers: this.headers, redirect: 'manual' });
  }

  async diff(): Promise<PhotoFile[]> {
    const diff = await this.get('/public-collection/diff?sinceTime=0');
    assert.equal(diff.status, 200);
    return ((await diff.json()) as CollectionDiffResponse).diff;
  }

  openFile(entry: PhotoFile): Promise<Original> {
    return openFile(entry, this.album.key, (kind) =>
      followDownload(
        new URL(`/public-collection/files/${kind}/${String(entry.id)}`, this.serverUrl),
        this.headers,
        this.storeOrigin,
      ),
    );
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin's alphabet; each leading zero byte is a leading "1"), as Ente's links carry the key. */
export function base58Encode(bytes: Uint8Array): string {
  let value = BigInt(`0x0${Buffer.from(bytes).toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = BASE58.charAt(Number(value % 58n)) + text;
    value /= 58n;
  }
  const zeros = bytes.findIndex((byte) => byte !== 0);
  return '1'.repeat(zeros === -1 ? bytes.length : zeros) + text;
}

export function base58Decode(text: string): Uint8Array {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit === -1) throw new Error(`not base58: ${char}`);
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = /^1*/.exec(text)?.[0].length ?? 0;
  return new Uint8Array([...new Uint8Array(zeros), ...body]);
}
