// The embedded object store: objects are files under one folder of the server's disk, and the signed
// URLs it hands out point at this server's own /objects routes (routes/objects.ts), which check the
// signature here and stream bodies through here. Nothing is ever held whole in memory: a PUT streams
// into a temporary file while its MD5 and length are counted, is synced, and only then renamed into
// place, so a reader sees the old object or the whole new one and a crash leaves no half object.
// A multipart upload's parts are written in place, at the offset signed into each part's URL, into one
// file of the upload, so completing it is a rename and the bytes reach the disk once.
//
// Layout under the root: objects/<key> (the key's segments are folders), tmp/ (bodies being received),
// uploads/<uploadId>/key (the key the upload is for), uploads/<uploadId>/data (the parts, in place) and
// uploads/<uploadId>/part-<n>-<md5 hex>-<offset>-<length> (a part received whole, synced and checked).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  mkdir,
  mkdtemp,
  open,
  opendir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  truncate,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

import { BodyTooLong, receiveToFile, sendRange } from './file-transfer.ts';
import {
  assertKey,
  keyProblem,
  type MultipartUploadInfo,
  type ObjectInfo,
  type ObjectStore,
  type PartTerms,
  type PutTerms,
} from './object-store.ts';
import { completeResultXml, parseCompleteMultipartUpload } from './s3-xml.ts';

/** The path prefix of the URLs the embedded store signs (the routes are registered under it). */
export const OBJECTS_PATH = '/objects/';

/** The largest CompleteMultipartUpload body read (10,000 parts take about 1 MB). */
const MAX_COMPLETE_BODY_BYTES = 2 * 1024 * 1024;

/** An S3 error code and its message: what the store found; routes/objects.ts chooses the status. */
export interface StoreError {
  error:
    | 'AccessDenied'
    | 'BadDigest'
    | 'IncompleteBody'
    | 'InvalidArgument'
    | 'InvalidPart'
    | 'InvalidPartOrder'
    | 'KeyConflict'
    | 'MalformedXML'
    | 'MissingContentLength'
    | 'NoSuchKey'
    | 'NoSuchUpload'
    | 'OperationAborted'
    | 'SignatureDoesNotMatch';
  message: string;
}

/** A request whose signature held: what it may do. */
export interface SignedRequest {
  method: 'PUT' | 'POST' | 'GET';
  key: string;
  /** PUT: the signed body length and MD5 (base64). */
  length?: number;
  md5?: string;
  /** A part's PUT and the completion's POST. */
  uploadId?: string;
  partNumber?: number;
  /** A part's PUT: where its bytes go in the object. */
  offset?: number;
}

export interface EmbeddedStoreOptions {
  /** The folder objects live in; undefined: a temporary folder removed on close (DATA_DIR=memory://). */
  root: string | undefined;
  /** Keys the URL signatures (derived from the server secret). */
  signingKey: Uint8Array;
  /** Prepended to the signed paths; '' gives URLs relative to the API's origin, which is also the store's. */
  baseUrl: string;
  /** Milliseconds since the epoch (tests move it to expire URLs). */
  now: () => number;
}

export class EmbeddedObjectStore implements ObjectStore {
  /** The folder the store keeps everything in (tests look inside). */
  readonly root: string;
  private readonly temporary: boolean;
  private readonly options: EmbeddedStoreOptions;
  /** Uploads with a part being written or being completed, and what: one at a time per upload and part. */
  private readonly busy = new Set<string>();

  private constructor(root: string, temporary: boolean, options: EmbeddedStoreOptions) {
    this.root = root;
    this.temporary = temporary;
    this.options = options;
  }

  static async open(options: EmbeddedStoreOptions): Promise<EmbeddedObjectStore> {
    const temporary = options.root === undefined;
    const root = options.root ?? (await mkdtemp(path.join(os.tmpdir(), 'ente-objects-')));
    for (const folder of ['objects', 'tmp', 'uploads']) await mkdir(path.join(root, folder), { recursive: true });
    return new EmbeddedObjectStore(path.resolve(root), temporary, options);
  }

  async close(): Promise<void> {
    if (this.temporary) await rm(this.root, { recursive: true, force: true });
  }

  // The presigner side.

  presignPut(key: string, terms: PutTerms): Promise<string> {
    return this.signLater({ method: 'PUT', key, length: terms.length, md5: terms.md5 }, terms);
  }

  async createMultipartUpload(key: string): Promise<string> {
    assertKey(key);
    const uploadId = randomBytes(16).toString('hex');
    await mkdir(this.uploadFolder(uploadId));
    await writeFile(path.join(this.uploadFolder(uploadId), 'data'), '');
    await writeFile(path.join(this.uploadFolder(uploadId), 'key'), key);
    return uploadId;
  }

  presignPart(key: string, uploadId: string, partNumber: number, terms: PartTerms): Promise<string> {
    const { length, md5, offset } = terms;
    return this.signLater({ method: 'PUT', key, length, md5, uploadId, partNumber, offset }, terms);
  }

  presignComplete(key: string, uploadId: string, expiresInSeconds: number): Promise<string> {
    return this.signLater({ method: 'POST', key, uploadId }, { expiresInSeconds });
  }

  async abortMultipartUpload(key: string, uploadId: string): Promise<void> {
    if (!isUploadId(uploadId) || (await this.uploadKey(uploadId)) !== key) return;
    await rm(this.uploadFolder(uploadId), { recursive: true, force: true });
  }

  presignGet(key: string, expiresInSeconds: number): Promise<string> {
    return this.signLater({ method: 'GET', key }, { expiresInSeconds });
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    assertKey(key);
    try {
      const info = await stat(this.objectPath(key));
      return info.isFile() ? { key, size: info.size, modifiedAt: info.mtimeMs } : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await rm(this.objectPath(key), { force: true });
  }

  async *list(): AsyncIterable<ObjectInfo> {
    const objects = path.join(this.root, 'objects');
    for await (const file of walk(objects)) {
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      const key = path.relative(objects, file).split(path.sep).join('/');
      yield { key, size: info.size, modifiedAt: info.mtimeMs };
    }
  }

  async *listMultipartUploads(): AsyncIterable<MultipartUploadInfo> {
    for (const uploadId of await readdir(path.join(this.root, 'uploads'))) {
      if (!isUploadId(uploadId)) continue;
      const key = await this.uploadKey(uploadId);
      const info = await stat(this.uploadFolder(uploadId)).catch(() => undefined);
      if (key !== undefined && info) yield { key, uploadId, startedAt: info.birthtimeMs || info.mtimeMs };
    }
  }

  // The serving side: what routes/objects.ts calls for a request to a signed URL.

  /**
   * The request a URL's query allows for `method` on `key`, or why it is refused: an invalid key, a
   * signature that does not cover exactly these values, or an expired one.
   */
  verify(method: string, key: string, query: Record<string, unknown>): SignedRequest | StoreError {
    const problem = keyProblem(key);
    if (problem) return { error: 'InvalidArgument', message: problem };
    const field = (name: string) => (typeof query[name] === 'string' ? query[name] : '');
    const signed: SignedRequest = { method: method === 'HEAD' ? 'GET' : (method as SignedRequest['method']), key };
    if (field('length') !== '') signed.length = Number(field('length'));
    if (field('md5') !== '') signed.md5 = field('md5');
    if (field('uploadId') !== '') signed.uploadId = field('uploadId');
    if (field('partNumber') !== '') signed.partNumber = Number(field('partNumber'));
    if (field('offset') !== '') signed.offset = Number(field('offset'));
    const expires = field('expires');
    const expected = this.signature(signed, expires);
    const given = Buffer.from(field('signature'), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return { error: 'SignatureDoesNotMatch', message: 'the signature does not match this request' };
    }
    if (!(Number(expires) * 1000 > this.options.now())) {
      return { error: 'AccessDenied', message: 'Request has expired' };
    }
    return signed;
  }

  /** Receives the body of a signed single PUT (a whole object) or of a part of a multipart upload. */
  async receive(signed: SignedRequest, body: Readable): Promise<{ etag: string } | StoreError> {
    if (signed.uploadId !== undefined) return this.receivePart(signed, signed.uploadId, body);
    const received = await this.receiveToTemporary(body, signed.length ?? 0);
    if ('error' in received) return received;
    try {
      if (received.md5.toString('base64') !== signed.md5) return badDigest;
      const placed = await this.place(received.file, signed.key);
      if (placed) return placed;
      return { etag: `"${received.md5.toString('hex')}"` };
    } finally {
      await rm(received.file, { force: true });
    }
  }

  /**
   * Writes a part at its signed offset into the upload's data file, syncs it, checks its MD5, and only then
   * records it. Its earlier record goes first, since its bytes are overwritten: a part sent again that fails
   * leaves the part missing (S3 keeps the earlier one), and the completion refuses it rather than join
   * bytes nobody checked. One write at a time per part, and none while the upload completes.
   */
  private async receivePart(signed: SignedRequest, uploadId: string, body: Readable) {
    const { partNumber = 0, offset, length = 0 } = signed;
    if (offset === undefined || !Number.isSafeInteger(offset) || offset < 0) {
      return { error: 'InvalidArgument', message: 'the URL has no part offset' } satisfies StoreError;
    }
    if (!isUploadId(uploadId) || (await this.uploadKey(uploadId)) !== signed.key) return noSuchUpload;
    const guard = `${uploadId}/${String(partNumber)}`;
    if (this.busy.has(guard) || this.busy.has(uploadId)) return operationAborted;
    this.busy.add(guard);
    try {
      const folder = this.uploadFolder(uploadId);
      const name = `part-${String(partNumber)}-`;
      for (const other of await readdir(folder)) {
        if (other.startsWith(name)) await rm(path.join(folder, other), { force: true });
      }
      const data = path.join(folder, 'data');
      const received = await this.receiveInto(body, length, data, offset);
      if ('error' in received) return received;
      if (received.md5.toString('base64') !== signed.md5) return badDigest;
      const hex = received.md5.toString('hex');
      await writeFile(path.join(folder, `${name}${hex}-${String(offset)}-${String(length)}`), '');
      await syncPath(folder);
      return { etag: `"${hex}"` };
    } catch (error) {
      // The upload was completed or aborted while this part arrived.
      if (isMissing(error)) return noSuchUpload;
      throw error;
    } finally {
      this.busy.delete(guard);
    }
  }

  /** Joins the parts a CompleteMultipartUpload body names, in order, into the upload's object. */
  async complete(signed: SignedRequest, body: Readable): Promise<{ xml: string } | StoreError> {
    const uploadId = signed.uploadId ?? '';
    if (!isUploadId(uploadId) || (await this.uploadKey(uploadId)) !== signed.key) return noSuchUpload;
    const text = await readLimited(body, MAX_COMPLETE_BODY_BYTES);
    if (text === undefined) return { error: 'MalformedXML', message: 'the body is too large' };
    const parts = parseCompleteMultipartUpload(text);
    if ('malformed' in parts) return { error: 'MalformedXML', message: parts.malformed };
    for (let i = 1; i < parts.length; i++) {
      if ((parts[i]?.partNumber ?? 0) <= (parts[i - 1]?.partNumber ?? 0)) {
        return { error: 'InvalidPartOrder', message: 'The list of parts was not in ascending order.' };
      }
    }
    if ([...this.busy].some((entry) => entry === uploadId || entry.startsWith(`${uploadId}/`))) {
      return operationAborted;
    }
    const folder = this.uploadFolder(uploadId);
    this.busy.add(uploadId);
    try {
      // Each listed part as recorded (its offset and length), in order; they must follow each other from 0.
      const recorded = new Map<string, { offset: number; length: number }>();
      for (const name of await readdir(folder)) {
        const match = /^part-(\d+)-([0-9a-f]{32})-(\d+)-(\d+)$/.exec(name);
        if (match) recorded.set(`${match[1]}-${match[2]}`, { offset: Number(match[3]), length: Number(match[4]) });
      }
      let size = 0;
      for (const part of parts) {
        const found = recorded.get(`${String(part.partNumber)}-${part.etag}`);
        if (!found) {
          const number = String(part.partNumber);
          return { error: 'InvalidPart', message: `Part ${number} was not uploaded or its ETag does not match.` };
        }
        if (found.offset !== size) {
          return { error: 'InvalidPart', message: 'The parts listed must follow each other with no gap.' };
        }
        size += found.length;
      }
      const data = path.join(folder, 'data');
      // Bytes of parts left out of the list may lie past the end.
      await truncate(data, size);
      await syncPath(data);
      const placed = await this.place(data, signed.key);
      if (placed) return placed;
    } finally {
      this.busy.delete(uploadId);
    }
    await rm(folder, { recursive: true, force: true });
    const digests = Buffer.concat(parts.map((part) => Buffer.from(part.etag, 'hex')));
    const etag = `"${createHash('md5').update(digests).digest('hex')}-${String(parts.length)}"`;
    return { xml: completeResultXml(signed.key, etag) };
  }

  /** The object opened for reading, or undefined when there is none (the caller closes it). */
  async openObject(key: string): Promise<OpenObject | undefined> {
    assertKey(key);
    let handle: FileHandle;
    try {
      handle = await open(this.objectPath(key), 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const info = await handle.stat().catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    if (!info.isFile()) {
      await handle.close();
      return undefined;
    }
    return {
      size: info.size,
      send: (out, start, end) => sendRange(handle, start, end, out),
      close: () => handle.close(),
    };
  }

  // Internals.

  /** sign() as a promise, so that an invalid key rejects like the S3 presigner's errors do. */
  private signLater(request: SignedRequest, terms: { expiresInSeconds: number }): Promise<string> {
    try {
      return Promise.resolve(this.sign(request, terms));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private sign(request: SignedRequest, terms: { expiresInSeconds: number }): string {
    assertKey(request.key);
    const expires = String(Math.floor(this.options.now() / 1000) + Math.ceil(terms.expiresInSeconds));
    const query = new URLSearchParams();
    if (request.length !== undefined) query.set('length', String(request.length));
    if (request.md5 !== undefined) query.set('md5', request.md5);
    if (request.uploadId !== undefined) query.set('uploadId', request.uploadId);
    if (request.partNumber !== undefined) query.set('partNumber', String(request.partNumber));
    if (request.offset !== undefined) query.set('offset', String(request.offset));
    query.set('expires', expires);
    query.set('signature', this.signature(request, expires).toString('base64url'));
    const encodedKey = request.key.split('/').map(encodeURIComponent).join('/');
    return `${this.options.baseUrl}${OBJECTS_PATH}${encodedKey}?${query.toString()}`;
  }

  /** HMAC-SHA256 over every value the request is bound to, one per line (none can hold a newline). */
  private signature(request: SignedRequest, expires: string): Buffer {
    const fields = [
      'ente-object-v1',
      request.method,
      request.key,
      expires,
      request.length === undefined ? '' : String(request.length),
      request.md5 ?? '',
      request.uploadId ?? '',
      request.partNumber === undefined ? '' : String(request.partNumber),
      // Appended only for parts, so that other URLs keep the signature they had.
      ...(request.offset === undefined ? [] : [String(request.offset)]),
    ];
    if (fields.some((field) => field.includes('\n'))) return Buffer.alloc(32);
    return createHmac('sha256', this.options.signingKey).update(fields.join('\n')).digest();
  }

  private async receiveToTemporary(
    body: Readable,
    length: number,
  ): Promise<{ file: string; md5: Buffer } | StoreError> {
    const file = this.temporaryPath();
    const received = await this.receiveInto(body, length, file);
    if ('error' in received) await rm(file, { force: true });
    return 'error' in received ? received : { file, md5: received.md5 };
  }

  /**
   * Streams exactly `length` bytes of the body into `file` (a new file, or at `offset` of an existing one),
   * counting their MD5, and syncs it; an IncompleteBody error when the body is shorter or longer.
   */
  private async receiveInto(
    body: Readable,
    length: number,
    file: string,
    offset?: number,
  ): Promise<{ md5: Buffer } | StoreError> {
    const handle = await open(file, offset === undefined ? 'wx' : 'r+');
    try {
      const { md5, size } = await receiveToFile(body, handle, offset ?? 0, length);
      if (size !== length) return incompleteBody(length);
      await handle.sync();
      return { md5 };
    } catch (error) {
      if (error instanceof BodyTooLong) return incompleteBody(length);
      throw error;
    } finally {
      await handle.close();
    }
  }

  /** Renames a synced file to the object's path; a key under another object's name is refused. */
  private async place(file: string, key: string): Promise<StoreError | undefined> {
    const target = this.objectPath(key);
    try {
      await mkdir(path.dirname(target), { recursive: true });
      await rename(file, target);
      await syncPath(path.dirname(target));
      return undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTEMPTY') {
        return { error: 'KeyConflict', message: 'the key is a folder of other keys, or one of its folders is a key' };
      }
      throw error;
    }
  }

  private objectPath(key: string): string {
    const objects = path.join(this.root, 'objects');
    const file = path.join(objects, ...key.split('/'));
    // keyProblem already refused every key that could leave the folder; this makes sure of it.
    if (!file.startsWith(objects + path.sep)) throw new Error('object key outside the store');
    return file;
  }

  private uploadFolder(uploadId: string): string {
    return path.join(this.root, 'uploads', uploadId);
  }

  private async uploadKey(uploadId: string): Promise<string | undefined> {
    return readFile(path.join(this.uploadFolder(uploadId), 'key'), 'utf8').catch(() => undefined);
  }

  private temporaryPath(): string {
    return path.join(this.root, 'tmp', randomBytes(12).toString('hex'));
  }
}

const badDigest: StoreError = {
  error: 'BadDigest',
  message: 'The Content-MD5 you specified did not match what we received.',
};

function incompleteBody(length: number): StoreError {
  return { error: 'IncompleteBody', message: `the body is not the signed ${String(length)} bytes` };
}

const operationAborted: StoreError = {
  error: 'OperationAborted',
  message: 'Another request is writing this part or completing this upload; try again.',
};

const noSuchUpload: StoreError = {
  error: 'NoSuchUpload',
  message: 'The specified upload does not exist. It may have been aborted or completed.',
};

/** An object open for reading: its size, and its bytes `start`…`end` (inclusive) written to a response. */
export interface OpenObject {
  size: number;
  send(out: Writable, start: number, end: number): Promise<void>;
  close(): Promise<void>;
}

function isUploadId(uploadId: string): boolean {
  return /^[0-9a-f]{32}$/.test(uploadId);
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** fsync of a file or folder through a descriptor of its own (the data and the inode are synced either way). */
async function syncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function* walk(folder: string): AsyncIterable<string> {
  const entries = await opendir(folder).catch(() => undefined);
  if (!entries) return;
  for await (const entry of entries) {
    const child = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(child);
    else if (entry.isFile()) yield child;
  }
}

/** The body as text, or undefined when it is longer than `limit` bytes. */
async function readLimited(body: Readable, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
