// Downloads of the photos app: a selection or an album as one streamed ZIP, or one original with its title.
// Pages call these straight from the person's click (see save.ts), pass an AbortSignal to cancel and get progress
// in files and bytes. Originals come from media's `openOriginal` (fetched and decrypted in the media worker).
import { streamPlaintextSize } from '@ente/crypto/stream-sizes.ts';

import { FileType } from '../library/types.ts';
import { openOriginal } from '../media/media.ts';
import { saveStream } from './save.ts';
import { safeFileName, splitExtension } from './zip-names.ts';
import {
  ProgressCounter,
  zipStream,
  type DownloadableFile,
  type DownloadProgress,
  type OpenOriginal,
} from './zip-stream.ts';

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Which original is being read, as each starts. */
  onFile?: (file: DownloadableFile) => void;
  /** A ZIP's original that could not be fetched or opened, left out (zip-stream.ts); without it, it fails the ZIP. */
  onSkip?: (file: DownloadableFile, error: unknown) => void;
  /** Where originals come from; media's `openOriginal` unless a test hands its own. */
  open?: OpenOriginal;
}

const zipType = { description: 'ZIP', mime: 'application/zip', extension: '.zip' };

const estimatedBytes = (files: readonly DownloadableFile[]) =>
  files.reduce((sum, file) => sum + streamPlaintextSize(file.fileSize ?? 0), 0);

/**
 * Saves `files` as one ZIP named `<name>.zip` (an album's name, or a name the page chose for a selection).
 * Rejects with DownloadError (`cancelled`, `tooLarge`), MediaError or DecryptionError.
 */
export function downloadZip(files: readonly DownloadableFile[], name: string, options: DownloadOptions = {}) {
  const { signal, onProgress, onFile, onSkip, open = openOriginal } = options;
  return saveStream(() => zipStream(files, { open, signal, onProgress, onFile, onSkip }), {
    name: `${safeFileName(name, 'photos')}.zip`,
    type: zipType,
    estimatedBytes: estimatedBytes(files),
    signal,
  });
}

/**
 * Saves one original under its title, byte for byte (a HEIC stays HEIC); a live photo, being two files, is saved
 * as a ZIP named after its title's stem.
 */
export function downloadOriginal(file: DownloadableFile, options: DownloadOptions = {}) {
  if (file.metadata.fileType === FileType.livePhoto) {
    return downloadZip([file], splitExtension(file.metadata.title)[0], options);
  }
  const { signal, open = openOriginal } = options;
  const counter = new ProgressCounter([file], { open, signal, onProgress: options.onProgress, onFile: options.onFile });
  return saveStream(
    async () => {
      counter.start(file);
      return (await open(file)).pipeThrough(counter.through());
    },
    {
      name: safeFileName(file.metadata.title),
      estimatedBytes: estimatedBytes([file]),
      signal,
    },
  );
}
