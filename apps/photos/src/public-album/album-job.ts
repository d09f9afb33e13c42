// A public album's cryptography, done by the media worker (media-job.ts serves these methods beside the thumbnails
// and originals), without libsodium: @ente/crypto's box-open.ts and open.ts (@noble/ciphers) open the album's name and files with
// the key of the link's fragment (the diff's rows checked and made gallery files here too, off the main thread:
// album-files.ts), and the link password's Argon2id is hash-wasm's (argon2id-wasm.ts, fetched when a password is
// submitted) with the link's salt and limits (refused outside the KDF bounds: KdfParamsError). A visit to a link
// loads neither libsodium nor a second worker (album-job.test.ts guards it). Each method takes one argument, as the
// worker's protocol wants (upload/worker-rpc.ts).
import { openBoxBytes } from '@ente/crypto/box-open.ts';
import { toB64 } from '@ente/crypto/encoding.ts';

import type { GalleryFile } from '../library/types.ts';

export function createAlbumJob() {
  return {
    /** The album's name as b64 bytes; DecryptionError when the key does not open it. */
    openAlbumName(box: { encryptedData: string; nonce: string; collectionKey: string }): Promise<string> {
      return Promise.resolve(
        toB64(openBoxBytes({ encryptedData: box.encryptedData, nonce: box.nonce }, box.collectionKey)),
      );
    },

    /** The diff's rows (as they came) as gallery files, in order; `null` for one that is malformed or does not open. */
    async openAlbumFiles(batch: { rows: readonly unknown[]; collectionKey: string }): Promise<(GalleryFile | null)[]> {
      const { albumFilesOf } = await import('./album-files.ts');
      return albumFilesOf(batch.rows, batch.collectionKey);
    },

    /** The hash of the link's password that verify-password compares (b64). */
    async linkPasswordHash(input: {
      password: string;
      salt: string;
      opsLimit: number;
      memLimit: number;
    }): Promise<string> {
      const { argon2idKeyB64 } = await import('@ente/crypto/argon2id-wasm.ts');
      return argon2idKeyB64(input.password, input.salt, input.opsLimit, input.memLimit);
    },
  };
}

export type AlbumJob = ReturnType<typeof createAlbumJob>;
