// The object store the photos routes keep encrypted files in: one interface, satisfied by the embedded
// store (embedded.ts: local disk, URLs served by this server) and later by an S3-compatible store. Its
// methods are the presigner's operations, so S3's `getSignedUrl` over PutObject, UploadPart,
// CompleteMultipartUpload and GetObject maps onto them one to one.

/** How long a URL is valid and what the request it allows must carry. */
export interface PutTerms {
  /** The body's exact length in bytes. */
  length: number;
  /** The body's MD5, base64 (the Content-MD5 header the client must send). */
  md5: string;
  expiresInSeconds: number;
}

export interface PartTerms extends PutTerms {
  /** Where the part's bytes start in the object (the sizes of the parts before it). S3 does not need it. */
  offset: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  /** Last modification, milliseconds since the epoch. */
  modifiedAt: number;
}

export interface MultipartUploadInfo {
  key: string;
  uploadId: string;
  /** When the upload was created, milliseconds since the epoch. */
  startedAt: number;
}

export interface ObjectStore {
  /** A URL for one PUT of exactly `terms.length` bytes whose MD5 is `terms.md5`. */
  presignPut(key: string, terms: PutTerms): Promise<string>;
  /** Starts a multipart upload of `key`; returns its upload id. */
  createMultipartUpload(key: string): Promise<string>;
  /** A URL for the PUT of part `partNumber` (1…10000); its answer's ETag is the quoted hex MD5 of the part. */
  presignPart(key: string, uploadId: string, partNumber: number, terms: PartTerms): Promise<string>;
  /** A URL for the POST of S3's CompleteMultipartUpload XML that joins the parts into `key`. */
  presignComplete(key: string, uploadId: string, expiresInSeconds: number): Promise<string>;
  /** Drops an upload and its parts (nothing happens for an unknown one). */
  abortMultipartUpload(key: string, uploadId: string): Promise<void>;
  /** A URL for GET (Range allowed) of `key`. */
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
  /** The object's size, or undefined when there is none. */
  head(key: string): Promise<ObjectInfo | undefined>;
  /** Removes the object; removing one that does not exist is not an error (as in S3). */
  delete(key: string): Promise<void>;
  /** Every stored object (tests and audits; the sweep goes by the object ledger, never by a listing). */
  list(): AsyncIterable<ObjectInfo>;
  /** Every upload neither completed nor aborted (tests and audits). */
  listMultipartUploads(): AsyncIterable<MultipartUploadInfo>;
  close(): Promise<void>;
}

/** The longest key in UTF-8 bytes (S3's limit). */
const MAX_KEY_BYTES = 1024;

/**
 * Why `key` is refused, or undefined when it is acceptable. A key becomes a path under the embedded
 * store's folder, so anything that could leave it or mean something else on disk is refused for every
 * implementation alike: empty, absolute, `.`/`..` or empty segments, NUL and other control characters,
 * backslashes.
 */
export function keyProblem(key: string): string | undefined {
  if (key === '') return 'empty key';
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) return `key longer than ${MAX_KEY_BYTES} bytes`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'control character in key';
  if (key.includes('\\')) return 'backslash in key';
  if (key.startsWith('/') || /^[A-Za-z]:/.test(key)) return 'absolute key';
  if (key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return 'empty, "." or ".." segment in key';
  }
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(key))
    return 'lone surrogate in key';
  return undefined;
}

/** Throws for a key `keyProblem` refuses (what every store does before signing or touching a key). */
export function assertKey(key: string): void {
  const problem = keyProblem(key);
  if (problem) throw new Error(`invalid object key: ${problem}`);
}
