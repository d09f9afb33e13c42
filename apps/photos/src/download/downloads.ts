// The tab's downloads as the download panel shows them: each ZIP or original with its progress (files and bytes
// done of the total, the original being read), whether it is running, done, failed or cancelled, and the files a
// ZIP had to leave out and why (a ZIP goes on without an original that could not be fetched or opened:
// docs/decisions.md). A snapshot, replaced on each change, for useSyncExternalStore; cancel aborts the download, and
// retry starts a failed or cancelled one again.
// Logout cancels them and forgets them (their titles are the library's plaintext).
import { streamPlaintextSize } from '@ente/crypto/stream-sizes.ts';
import { log } from '@ente/shared/log.ts';
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';

import { MediaError } from '../media/errors.ts';
import { downloadOriginal, downloadZip, type DownloadOptions } from './download.ts';
import { DownloadError } from './save.ts';
import { safeFileName } from './zip-names.ts';
import type { DownloadableFile, DownloadProgress } from './zip-stream.ts';

/** Why a file or a download failed, as the panel says it. */
export type DownloadFailureReason = 'network' | 'notFound' | 'server' | 'tooLarge' | 'damaged' | 'unknown';

export interface DownloadFailure {
  title: string;
  reason: DownloadFailureReason;
}

export interface DownloadTask {
  id: number;
  /** The name saved: `<album>.zip`, or the original's title. */
  name: string;
  status: 'running' | 'done' | 'failed' | 'cancelled';
  progress: DownloadProgress;
  /** The title of the original being read. */
  current?: string;
  /** The originals a ZIP left out. */
  skipped: readonly DownloadFailure[];
  /** Why the whole download failed. */
  error?: DownloadFailureReason;
}

/** How a download is done: download.ts's functions (tests hand their own). */
export interface DownloadRunners {
  zip: (files: readonly DownloadableFile[], name: string, options: DownloadOptions) => Promise<void>;
  original: (file: DownloadableFile, options: DownloadOptions) => Promise<void>;
}

/** The reason the panel gives for an error of a download (media's, crypto's, save.ts's). */
export function failureReason(error: unknown): DownloadFailureReason {
  // `held` is only ever a thumbnail's (media/scroll-pace.ts).
  if (error instanceof MediaError) return error.reason === 'held' ? 'unknown' : error.reason;
  if (error instanceof DownloadError && error.reason === 'tooLarge') return 'tooLarge';
  // By name: the crypto package's errors cross the worker boundary rebuilt, and this file loads no crypto.
  if (error instanceof Error && error.name === 'DecryptionError') return 'damaged';
  return 'unknown';
}

export class Downloads {
  private tasks: readonly DownloadTask[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly controllers = new Map<number, AbortController>();
  /** What a download that may be tried again saves: until it is done, cleared or tried again. */
  private readonly sources = new Map<number, { files: readonly DownloadableFile[]; zipName: string }>();
  private lastID = 0;

  constructor(private readonly runners: DownloadRunners = { zip: downloadZip, original: downloadOriginal }) {}

  readonly snapshot = (): readonly DownloadTask[] => this.tasks;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(id: number, change: (task: DownloadTask) => Partial<DownloadTask>): void {
    this.tasks = this.tasks.map((task) => (task.id === id ? { ...task, ...change(task) } : task));
    for (const listener of this.listeners) listener();
  }

  private remove(id: number): void {
    this.sources.delete(id);
    this.tasks = this.tasks.filter((task) => task.id !== id);
    for (const listener of this.listeners) listener();
  }

  /**
   * Saves `files`: one original as it is, several as `<zipName>.zip`. Call it straight from the person's click (a
   * file picker may open). Resolves once it ended, whichever way (the task says how).
   */
  start(files: readonly DownloadableFile[], zipName: string): Promise<void> {
    const [only] = files;
    if (!only) return Promise.resolve();
    const id = ++this.lastID;
    const controller = new AbortController();
    this.controllers.set(id, controller);
    this.sources.set(id, { files, zipName });
    const single = files.length === 1;
    const bytesTotal = files.reduce((sum, file) => sum + streamPlaintextSize(file.fileSize ?? 0), 0);
    this.tasks = [
      ...this.tasks,
      {
        id,
        name: single ? safeFileName(only.metadata.title) : `${safeFileName(zipName, 'photos')}.zip`,
        status: 'running',
        progress: { filesDone: 0, filesTotal: files.length, bytesDone: 0, bytesTotal },
        skipped: [],
      },
    ];
    for (const listener of this.listeners) listener();
    let started = false;
    const options: DownloadOptions = {
      signal: controller.signal,
      onProgress: (progress) => this.update(id, () => ({ progress })),
      onFile: (file) => {
        started = true;
        this.update(id, () => ({ current: file.metadata.title }));
      },
      onSkip: (file, error) =>
        this.update(id, (task) => ({
          skipped: [...task.skipped, { title: file.metadata.title, reason: failureReason(error) }],
        })),
    };
    const running = single ? this.runners.original(only, options) : this.runners.zip(files, zipName, options);
    return running
      .then(
        () => {
          this.sources.delete(id);
          this.update(id, () => ({ status: 'done', current: undefined }));
        },
        (error: unknown) => {
          if (error instanceof DownloadError && error.reason === 'cancelled') {
            // Dismissing the file picker, before anything was read, is no download to tell about.
            if (!started && !controller.signal.aborted) this.remove(id);
            else this.update(id, () => ({ status: 'cancelled', current: undefined }));
          } else {
            log.error('Could not download', error);
            this.update(id, () => ({ status: 'failed', error: failureReason(error), current: undefined }));
          }
        },
      )
      .finally(() => this.controllers.delete(id));
  }

  /** Stops a running download (its partial file is discarded where the browser allows). */
  cancel(id: number): void {
    this.controllers.get(id)?.abort(new DOMException('The download was cancelled.', 'AbortError'));
  }

  /**
   * Starts a failed or cancelled download again, as a new one in place of it (the same files and name). Call it
   * from the person's click, as `start`. Resolves once the new one ended.
   */
  retry(id: number): Promise<void> {
    const source = this.sources.get(id);
    const task = this.tasks.find((each) => each.id === id);
    if (!source || !task || task.status === 'running' || task.status === 'done') return Promise.resolve();
    this.remove(id);
    return this.start(source.files, source.zipName);
  }

  /** Forgets the downloads that ended. */
  clearFinished(): void {
    this.tasks = this.tasks.filter((task) => task.status === 'running');
    for (const id of this.sources.keys()) if (!this.controllers.has(id)) this.sources.delete(id);
    for (const listener of this.listeners) listener();
  }

  /** Cancels every running download and forgets them all. */
  reset(): void {
    for (const controller of this.controllers.values()) controller.abort();
    this.controllers.clear();
    this.sources.clear();
    this.tasks = [];
    for (const listener of this.listeners) listener();
  }
}

/** The tab's downloads. */
export const downloads = new Downloads();

registerInMemoryReset('photos-downloads', () => downloads.reset());
