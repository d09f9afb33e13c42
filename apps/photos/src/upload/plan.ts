// How an encrypted object goes to the store (docs/protocol.md#photos): one signed PUT when it fits one part,
// else a multipart upload of `UPLOAD_PART_BYTES` parts, and where its ciphertext waits meanwhile (the server
// wants every part's MD5 before it hands out part URLs, so the whole ciphertext exists before the first PUT).
import { STREAM_ENCRYPTED_CHUNK_BYTES } from '@ente/crypto/stream-sizes.ts';

/** Five encrypted chunks (20,971,605 bytes), Ente's part size: parts line up with chunks, and ≥ 5 MiB. */
export const UPLOAD_PART_BYTES = 5 * STREAM_ENCRYPTED_CHUNK_BYTES;

/** The server's largest object (docs/protocol.md#photos, `contentLength`). */
export const MAX_OBJECT_BYTES = 10 * 1024 * 1024 * 1024;

/** Largest ciphertext kept in the worker's memory when the browser has no OPFS to stage it in. */
export const MAX_MEMORY_STAGING_BYTES = 512 * 1024 * 1024;

/** One part of an object: its byte range and MD5 (b64). */
export interface PlannedPart {
  partNumber: number;
  offset: number;
  length: number;
  md5: string;
}

export type UploadPlan =
  | { kind: 'single'; size: number; md5: string }
  | { kind: 'multipart'; size: number; partLength: number; parts: PlannedPart[] };

/** The plan for an object of `size` bytes whose parts of `partLength` have the MD5s `partMd5s`. */
export function planObjectUpload(size: number, partLength: number, partMd5s: readonly string[]): UploadPlan {
  const count = Math.max(1, Math.ceil(size / partLength));
  if (partMd5s.length !== count) throw new RangeError(`${count} parts need ${count} MD5s, not ${partMd5s.length}`);
  if (count === 1) return { kind: 'single', size, md5: partMd5s[0] ?? '' };
  const parts = partMd5s.map((md5, index) => {
    const offset = index * partLength;
    return { partNumber: index + 1, offset, length: Math.min(partLength, size - offset), md5 };
  });
  return { kind: 'multipart', size, partLength, parts };
}

/** The body of S3's CompleteMultipartUpload, the ETags in part order (as the store answered them). */
export function completeMultipartBody(etags: readonly string[]): string {
  const parts = etags.map(
    (etag, index) => `<Part><PartNumber>${index + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`,
  );
  return `<CompleteMultipartUpload>${parts.join('')}</CompleteMultipartUpload>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Where the ciphertext of an object of `size` bytes, uploaded in parts of `partLength`, waits until its PUTs, or
 * why it cannot be uploaded.
 */
export function chooseStaging(
  size: number,
  partLength: number,
  opfsAvailable: boolean,
): 'memory' | 'opfs' | 'tooLarge' {
  if (size > MAX_OBJECT_BYTES) return 'tooLarge';
  if (size <= partLength) return 'memory';
  if (opfsAvailable) return 'opfs';
  return size <= MAX_MEMORY_STAGING_BYTES ? 'memory' : 'tooLarge';
}
