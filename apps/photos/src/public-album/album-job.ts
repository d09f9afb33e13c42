// A public album's cryptography, done by the media worker (media-job.ts serves these methods beside the thumbnails
// and originals): a visit to a link then starts one worker with one copy of libsodium, where the crypto worker
// would bring a second (and its SRP and recovery code). The album's name and files opened with the key of the
// link's fragment (the diff's rows checked and made gallery files here too, off the main thread:
// album-files.ts), and the link password's Argon2id with the link's salt and limits (refused outside the KDF
// bounds: KdfParamsError). Each method takes one argument, as the worker's protocol wants (upload/worker-rpc.ts).
import { decryptBoxB64 } from '@ente/crypto/box.ts';
import { argon2idKey } from '@ente/crypto/export-file.ts';
import { createPhotosLibraryCrypto } from '@ente/crypto/photos-library.ts';

import type { GalleryFile } from '../library/types.ts';

export function createAlbumJob() {
  const library = createPhotosLibraryCrypto();
  return {
    /** The album's name as b64 bytes; DecryptionError when the key does not open it. */
    openAlbumName(box: { encryptedData: string; nonce: string; collectionKey: string }): Promise<string> {
      return decryptBoxB64({ encryptedData: box.encryptedData, nonce: box.nonce }, box.collectionKey);
    },

    /** The diff's rows (as they came) as gallery files, in order; `null` for one that is malformed or does not open. */
    async openAlbumFiles(batch: { rows: readonly unknown[]; collectionKey: string }): Promise<(GalleryFile | null)[]> {
      const { albumFilesOf } = await import('./album-files.ts');
      return albumFilesOf(batch.rows, batch.collectionKey, library);
    },

    /** The hash of the link's password that verify-password compares (b64). */
    linkPasswordHash(input: { password: string; salt: string; opsLimit: number; memLimit: number }): Promise<string> {
      return argon2idKey(input.password, input.salt, input.opsLimit, input.memLimit);
    },
  };
}

export type AlbumJob = ReturnType<typeof createAlbumJob>;
