// Opening a Box, a Blob and a Stream (docs/protocol.md#crypto-primitives) without libsodium, on @noble/ciphers
// (secretstream-pull.ts for the secretstreams): for code that only opens what it is given and must stay light, the
// photos app's media worker and a public album's visit, where libsodium's 187 KiB gzip would be most of the page.
// A Box's opening is box-open.ts's, a module of its own, so that a worker that only opens Boxes (a password link's
// visit opens the album's name) does not load the secretstream code.
// The same answers and refusals as box.ts, blob.ts and stream.ts (DecryptionError for anything that does not open,
// malformed base64 included); open.test.ts checks them against libsodium's output.
import { opening } from './box-open.ts';
import { bytesOf, type BytesOrB64 } from './encoding.ts';
import { DecryptionError } from './errors.ts';
import { SECRETSTREAM_TAG_FINAL, secretstreamPuller } from './secretstream-pull.ts';
import {
  finalTrackingDecryptor,
  openChunks,
  readableOf,
  type ByteSource,
  type ChunkDecryptor,
} from './stream-chunks.ts';

/** Opens a one-message Blob; `DecryptionError` unless it authenticates and ends with TAG_FINAL. */
export function openBlobBytes(
  blob: { encryptedData: BytesOrB64; header: BytesOrB64 },
  key: BytesOrB64,
): Uint8Array<ArrayBuffer> {
  const { message, tag } = opening('blob', () =>
    secretstreamPuller(bytesOf(blob.header), bytesOf(key)).pull(bytesOf(blob.encryptedData)),
  );
  if (tag !== SECRETSTREAM_TAG_FINAL) throw new DecryptionError('blob could not be opened');
  return message;
}

/** stream.ts's `createChunkDecryptor`, without libsodium. */
export function createStreamOpener(header: BytesOrB64, key: BytesOrB64): ChunkDecryptor {
  const puller = opening('stream header or key', () => secretstreamPuller(bytesOf(header), bytesOf(key)));
  return finalTrackingDecryptor((chunk) => {
    const { message, tag } = opening('stream chunk', () => puller.pull(chunk));
    return { plaintext: message, last: tag === SECRETSTREAM_TAG_FINAL };
  });
}

/** stream.ts's `decryptingStream` (bytes cut anywhere, 4 MiB + 17 chunks, FINAL required), without libsodium. */
export function openingStream(source: ByteSource, header: BytesOrB64, key: BytesOrB64): ReadableStream<Uint8Array> {
  return readableOf(
    (async function* () {
      yield* openChunks(source, createStreamOpener(header, key));
    })(),
  );
}
