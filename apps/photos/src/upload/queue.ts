// The upload queue of the main thread: files wait in order, `concurrency` of them run at once (each in an
// upload worker, through `run`), more when they are small (`small`: the work of a small file is mostly waiting
// on requests, so more of them at once keep the cores busy), and each has a status, its progress in bytes of work, and its outcome or
// error. Cancel stops one file or all (a running one through its AbortSignal); retry puts a failed or
// cancelled file back in the queue. Listeners hear of every change and read an immutable snapshot (fit for
// React's useSyncExternalStore), built only when read; idle listeners hear only when the queue has nothing left
// to do. The queue knows nothing of HTTP or crypto: `run` does the work.
import { fileWork, overallProgress, type Progress } from './progress.ts';
import {
  asUploadError,
  livePhotoPartsOf,
  type UploadError,
  type UploadInput,
  type UploadOutcome,
  type UploadStatus,
  type UploadTarget,
} from './types.ts';

/** What `run` is told for one file: its stage and its progress, and a signal aborted when it is cancelled. */
export interface UploadRunControl {
  signal: AbortSignal;
  setStatus(status: 'hashing' | 'encrypting' | 'uploading' | 'finishing'): void;
  setProgress(done: number, total?: number): void;
}

/** One item's work: a file, or a live photo (its image as `file`, its video as `video`). */
export interface UploadJob {
  file: File;
  video?: File;
  target: UploadTarget;
}

export type RunUpload = (job: UploadJob, control: UploadRunControl) => Promise<UploadOutcome>;

/** One file of the queue as listeners see it. */
export interface UploadItem {
  readonly id: number;
  /** The file, or a live photo's image (whose name is the item's title). */
  readonly file: File;
  /** A live photo's video. */
  readonly video?: File;
  readonly target: UploadTarget;
  readonly status: UploadStatus;
  readonly done: number;
  readonly total: number;
  readonly outcome?: UploadOutcome;
  readonly error?: UploadError;
}

export interface UploadQueueSnapshot {
  readonly items: readonly UploadItem[];
  readonly progress: Progress;
  /** Files queued or running. */
  readonly pending: number;
}

export interface UploadQueue {
  /** Queues files (or live photos) for `target`; answers their ids. */
  add(inputs: readonly UploadInput[], target: UploadTarget): number[];
  cancel(id: number): void;
  cancelAll(): void;
  /** Queues a failed or cancelled file again. */
  retry(id: number): void;
  retryFailed(): void;
  /** Forgets the files that are done, failed or cancelled. */
  clearFinished(): void;
  // Properties, not methods: React's useSyncExternalStore takes them unbound (use-upload-queue.ts).
  snapshot: () => UploadQueueSnapshot;
  subscribe: (listener: () => void) => () => void;
  /**
   * Calls `listener` each time the queue becomes idle: nothing queued or running (a cancelled file's run
   * included, until it has stopped). Answers the unsubscribe.
   */
  onIdle(listener: () => void): () => void;
  /** Calls `listener` with each item that reaches an end (done, failed or cancelled), once per end. Answers the unsubscribe. */
  onItemEnd(listener: (item: UploadItem) => void): () => void;
  /** Resolves once the queue is idle (at once when it is). */
  whenIdle(): Promise<void>;
}

interface Entry {
  item: UploadItem;
  controller?: AbortController;
}

/** The bytes an item reads: a file's, or both of a live photo's. */
export const itemBytes = (item: { file: File; video?: File }) => item.file.size + (item.video?.size ?? 0);

const finalStatuses: ReadonlySet<UploadStatus> = new Set(['done', 'failed', 'cancelled']);

export interface UploadQueueOptions {
  run: RunUpload;
  /** Files run at once whatever their size. */
  concurrency?: number;
  /** Up to `files` at once while the running files hold at most `bytes` together (the next in order included). */
  small?: { files: number; bytes: number };
}

export function createUploadQueue({ run, concurrency = 3, small }: UploadQueueOptions): UploadQueue {
  const entries = new Map<number, Entry>();
  const listeners = new Set<() => void>();
  const idleListeners = new Set<() => void>();
  const endListeners = new Set<(item: UploadItem) => void>();
  let nextID = 1;
  let running = 0;
  let runningBytes = 0;
  /** Items queued or running, kept as statuses change (a progress tick does not count them again). */
  let pending = 0;
  /** Whether the idle listeners were told of the present idleness. */
  let idleTold = true;
  let cached: UploadQueueSnapshot | undefined;

  const isIdle = () => pending === 0 && running === 0;
  const changed = () => {
    cached = undefined;
    for (const listener of [...listeners]) listener();
    if (!isIdle()) idleTold = false;
    else if (!idleTold) {
      idleTold = true;
      for (const listener of [...idleListeners]) listener();
    }
  };
  const isPending = (status: UploadStatus) => !finalStatuses.has(status);
  const update = (entry: Entry, patch: Partial<UploadItem>) => {
    const before = entry.item.status;
    entry.item = { ...entry.item, ...patch };
    pending += Number(isPending(entry.item.status)) - Number(isPending(before));
    if (isPending(before) && !isPending(entry.item.status)) {
      const ended = entry.item;
      for (const listener of [...endListeners]) listener(ended);
    }
  };
  const onIdle = (listener: () => void) => {
    idleListeners.add(listener);
    return () => void idleListeners.delete(listener);
  };

  /** Whether a file of `bytes` may start now. */
  const roomFor = (bytes: number) =>
    running < concurrency || (small !== undefined && running < small.files && runningBytes + bytes <= small.bytes);

  const pump = () => {
    for (const entry of entries.values()) {
      if (entry.item.status !== 'queued') continue;
      // In order: a large file waits for room rather than letting smaller ones after it pass.
      if (!roomFor(itemBytes(entry.item))) break;
      void start(entry);
    }
  };

  const start = async (entry: Entry) => {
    const bytes = itemBytes(entry.item);
    running++;
    runningBytes += bytes;
    const controller = new AbortController();
    entry.controller = controller;
    update(entry, { status: 'encrypting', done: 0 });
    changed();
    const stillMine = () => entry.controller === controller && !controller.signal.aborted;
    const control: UploadRunControl = {
      signal: controller.signal,
      setStatus(status) {
        if (!stillMine()) return;
        update(entry, { status });
        changed();
      },
      setProgress(done, total) {
        if (!stillMine()) return;
        update(entry, { done, total: total ?? entry.item.total });
        changed();
      },
    };
    try {
      const { file, video, target } = entry.item;
      const outcome = await run({ file, ...(video ? { video } : {}), target }, control);
      if (stillMine()) update(entry, { status: 'done', outcome, done: entry.item.total });
    } catch (error) {
      if (entry.controller === controller) {
        const failure = asUploadError(error, controller.signal);
        update(entry, { status: failure.reason === 'cancelled' ? 'cancelled' : 'failed', error: failure });
      }
    } finally {
      if (entry.controller === controller) entry.controller = undefined;
      running--;
      runningBytes -= bytes;
      changed();
      pump();
    }
  };

  const cancelEntry = (entry: Entry) => {
    if (finalStatuses.has(entry.item.status)) return;
    entry.controller?.abort(new Error('cancelled'));
    update(entry, { status: 'cancelled', error: asUploadError(undefined, AbortSignal.abort()) });
  };

  const requeue = (entry: Entry) => {
    if (entry.item.status !== 'failed' && entry.item.status !== 'cancelled') return;
    entry.controller = undefined;
    update(entry, { status: 'queued', done: 0, total: fileWork(itemBytes(entry.item), false), error: undefined });
  };

  return {
    add(inputs, target) {
      const ids = inputs.map((input) => {
        const id = nextID++;
        const live = livePhotoPartsOf(input);
        const parts = live ? { file: live.image, video: live.video } : { file: input as File };
        const total = fileWork(itemBytes(parts), false);
        const item: UploadItem = { id, ...parts, target, status: 'queued', done: 0, total };
        entries.set(id, { item });
        pending++;
        return id;
      });
      changed();
      pump();
      return ids;
    },
    cancel(id) {
      const entry = entries.get(id);
      if (!entry) return;
      cancelEntry(entry);
      changed();
    },
    cancelAll() {
      for (const entry of entries.values()) cancelEntry(entry);
      changed();
    },
    retry(id) {
      const entry = entries.get(id);
      if (!entry) return;
      requeue(entry);
      changed();
      pump();
    },
    retryFailed() {
      for (const entry of entries.values()) if (entry.item.status === 'failed') requeue(entry);
      changed();
      pump();
    },
    clearFinished() {
      for (const [id, entry] of entries) if (finalStatuses.has(entry.item.status)) entries.delete(id);
      changed();
    },
    snapshot() {
      if (!cached) {
        const items = [...entries.values()].map(({ item }) => item);
        cached = { items, progress: overallProgress(items), pending };
      }
      return cached;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onIdle,
    onItemEnd(listener) {
      endListeners.add(listener);
      return () => void endListeners.delete(listener);
    },
    whenIdle() {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => {
        const stop = onIdle(() => {
          stop();
          resolve();
        });
      });
    },
  };
}
