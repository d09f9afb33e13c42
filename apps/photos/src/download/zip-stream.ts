// The ZIP of a selection or an album as a stream (client-zip): each original is opened (fetched and decrypted as
// a stream by media's `openOriginal`) only when the ZIP writer reaches it, so one file at a time flows through and
// no album is ever whole in memory. A live photo's original (itself a small ZIP) is read whole and gives its two
// files. Names come from the titles, made safe and unique (zip-names.ts); each entry's time is the creation time.
import { streamPlaintextSize } from '@ente/crypto/stream-sizes.ts';

import { FileType, type FileMetadata } from '../library/types.ts';
import { livePhotoFiles, readLivePhoto, refuseLargeLivePhoto } from './live-photo.ts';
import { safeFileName, UniqueNames } from './zip-names.ts';

/** What a download needs of a library file (GalleryFile has all of it). */
export interface DownloadableFile {
  id: number;
  key: string;
  fileHeader: string;
  metadata: FileMetadata;
  /** An edited creation time (µs), used instead of the metadata's. */
  editedTime?: number;
  /** The encrypted object's size, when the server gave it (for the progress total). */
  fileSize?: number;
}

/** The decrypted original as a stream (media's `openOriginal` in the app; the tests hand their own). */
export type OpenOriginal = (file: DownloadableFile) => Promise<ReadableStream<Uint8Array>>;

export interface DownloadProgress {
  filesDone: number;
  filesTotal: number;
  /** Plaintext bytes of originals read so far. */
  bytesDone: number;
  /** The originals' plaintext sizes, from the encrypted sizes the server gave (0 for a file without one). */
  bytesTotal: number;
}

export interface ZipOptions {
  open: OpenOriginal;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Told which original is being read, as each one starts. */
  onFile?: (file: DownloadableFile) => void;
  /**
   * Given, an original that cannot be fetched or opened (its first bytes never came, or a live photo that did not
   * read) is left out of the ZIP and told here, and the ZIP goes on; without it, it errors the ZIP. A failure
   * after an entry's first bytes errors the ZIP either way: those bytes are written already.
   */
  onSkip?: (file: DownloadableFile, error: unknown) => void;
}

/** When the file was taken, as the ZIP entry's time. */
export function creationDate(file: DownloadableFile): Date {
  return new Date(Math.floor((file.editedTime ?? file.metadata.creationTime) / 1000));
}

/** Counts what flows through for the progress, and stops the flow once the download is cancelled. */
export class ProgressCounter {
  private readonly progress: DownloadProgress;
  /** The bytes of the file being read, taken back if it is left out; whether it was read to its end. */
  private fileBytes = 0;
  private fileEnded = false;

  constructor(
    files: readonly DownloadableFile[],
    private readonly options: ZipOptions,
  ) {
    const bytesTotal = files.reduce((sum, file) => sum + streamPlaintextSize(file.fileSize ?? 0), 0);
    this.progress = { filesDone: 0, filesTotal: files.length, bytesDone: 0, bytesTotal };
  }

  private report(): void {
    this.options.onProgress?.({ ...this.progress });
  }

  /** `file` is the one being read now. */
  start(file: DownloadableFile): void {
    this.fileBytes = 0;
    this.fileEnded = false;
    this.options.onFile?.(file);
  }

  /** `file` was left out: done with, its bytes no longer expected. */
  skip(file: DownloadableFile): void {
    // A live photo read to its end and then found damaged was counted done already.
    if (!this.fileEnded) this.progress.filesDone += 1;
    this.progress.bytesDone -= this.fileBytes;
    this.progress.bytesTotal = Math.max(0, this.progress.bytesTotal - streamPlaintextSize(file.fileSize ?? 0));
    this.fileBytes = 0;
    this.report();
  }

  /** A pass-through for one file's stream: bytes counted as they pass, the file counted when it ends. */
  through(): TransformStream<Uint8Array, Uint8Array> {
    const { signal } = this.options;
    return new TransformStream({
      transform: (chunk, controller) => {
        if (signal?.aborted) {
          controller.error(signal.reason);
          return;
        }
        this.progress.bytesDone += chunk.length;
        this.fileBytes += chunk.length;
        this.report();
        controller.enqueue(chunk);
      },
      flush: () => {
        this.fileEnded = true;
        this.progress.filesDone += 1;
        this.report();
      },
    });
  }
}

/** One ZIP entry as client-zip takes it. */
export interface ZipInput {
  name: string;
  lastModified: Date;
  input: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>;
}

/**
 * `stream` once its first chunk came: an original that cannot be fetched or does not open with its key fails here,
 * before anything of it is written to the ZIP.
 */
async function started(stream: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const reader = stream.getReader();
  const first = await reader.read();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(first.value);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** One file's entries: the original as one, or a live photo's image and video (read whole). */
async function entriesOf(file: DownloadableFile, counter: ProgressCounter, options: ZipOptions, names: UniqueNames) {
  const lastModified = creationDate(file);
  if (file.metadata.fileType === FileType.livePhoto) refuseLargeLivePhoto(file.fileSize);
  const stream = (await options.open(file)).pipeThrough(counter.through());
  if (file.metadata.fileType !== FileType.livePhoto) {
    const input = options.onSkip ? await started(stream) : stream;
    return [{ name: names.take(safeFileName(file.metadata.title)), lastModified, input }];
  }
  const zip = await readLivePhoto(stream, file.fileSize);
  const parts = await livePhotoFiles(zip, file.metadata.title);
  return parts.map((part) => ({ name: names.take(safeFileName(part.name)), lastModified, input: part.bytes }));
}

/** The ZIP's entries, each original opened only when the writer asks for the next entry. */
export async function* zipInputs(files: readonly DownloadableFile[], options: ZipOptions): AsyncGenerator<ZipInput> {
  const names = new UniqueNames();
  const counter = new ProgressCounter(files, options);
  let skipped = 0;
  for (const file of files) {
    options.signal?.throwIfAborted();
    counter.start(file);
    let entries: ZipInput[];
    try {
      entries = await entriesOf(file, counter, options, names);
    } catch (error) {
      // A cancel ends the ZIP with its reason; so does every file failing (an empty ZIP would say nothing).
      options.signal?.throwIfAborted();
      if (!options.onSkip || ++skipped === files.length) throw error;
      counter.skip(file);
      options.onSkip(file, error);
      continue;
    }
    yield* entries;
  }
}

/** The ZIP of these files as a stream (client-zip is loaded on first use). Errors if one original fails. */
export async function zipStream(
  files: readonly DownloadableFile[],
  options: ZipOptions,
): Promise<ReadableStream<Uint8Array>> {
  const { makeZip } = await import('client-zip');
  return makeZip(zipInputs(files, options));
}
