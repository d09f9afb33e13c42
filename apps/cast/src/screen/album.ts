// The cast album as the screen knows it: the diff read page by page with the cast token, each page's files
// opened in the crypto worker with the album key (file key, metadata), the images and live photos kept.
import { cryptoWorker } from '@ente/crypto/client.ts';
import type { CastPayload, PhotoFile } from '@ente/protocol';

import { castDiff } from './cast-api.ts';

/** Ente's metadata fileType: 0 image, 1 video, 2 live photo (a ZIP of its image and its video). */
export type CastFile = {
  id: number;
  key: string;
  fileType: number;
  fileHeader: string;
  thumbnailHeader: string;
  /** The original's encrypted size when the server knows it. */
  fileSize?: number | undefined;
};

/** Whether a file is for the slideshow: images and live photos (videos are not). */
export function isSlideshowFile(metadata: unknown): boolean {
  const fileType = (metadata as { fileType?: unknown } | null)?.fileType;
  return fileType === 0 || fileType === 2;
}

export class CastAlbum {
  private sinceTime = 0;
  private readonly files = new Map<number, CastFile>();

  constructor(private readonly payload: CastPayload) {}

  /** Reads the diff from where the last read ended, to its end. */
  async refresh(signal?: AbortSignal): Promise<void> {
    const crypto = await cryptoWorker();
    for (;;) {
      const page = await castDiff(this.payload.castToken, this.sinceTime, signal);
      const live = page.diff.filter((file) => !file.isDeleted);
      for (const file of page.diff) if (file.isDeleted) this.files.delete(file.id);
      const opened = await crypto.openFiles(live.map(lockedFile), this.payload.collectionKey);
      live.forEach((file, index) => {
        const open = opened[index];
        if (open && isSlideshowFile(open.metadata)) this.files.set(file.id, castFile(file, open.key, open.metadata));
        else this.files.delete(file.id);
      });
      for (const file of page.diff) this.sinceTime = Math.max(this.sinceTime, file.updationTime);
      if (!page.hasMore || page.diff.length === 0) return;
    }
  }

  ids(): number[] {
    return [...this.files.keys()].sort((a, b) => a - b);
  }

  file(id: number): CastFile | undefined {
    return this.files.get(id);
  }
}

function lockedFile(file: PhotoFile) {
  return {
    encryptedKey: file.encryptedKey,
    keyDecryptionNonce: file.keyDecryptionNonce,
    metadata: { encryptedData: file.metadata.encryptedData, decryptionHeader: file.metadata.decryptionHeader },
  };
}

function castFile(file: PhotoFile, key: string, metadata: unknown): CastFile {
  return {
    id: file.id,
    key,
    fileType: (metadata as { fileType: number }).fileType,
    fileHeader: file.file.decryptionHeader,
    thumbnailHeader: file.thumbnail.decryptionHeader,
    fileSize: file.info?.fileSize,
  };
}
