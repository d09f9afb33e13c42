// The upload workers of one queue, reused from file to file: starting a module worker and loading libsodium and
// hash-wasm in it costs more than the whole work of a small photo, so a file takes an idle worker when there is
// one and gives it back once its state is reset (the job's `dispose`). A worker whose file was cancelled, or
// whose reset failed, is ended instead (its memory, its OPFS handle and its Web Lock go with it). The queue
// runs at most `concurrency` files at once, so at most that many workers live; the idle ones are ended when the
// queue has nothing left to do (uploader.ts), and all of them at logout.

/** What the pool needs of a worker. */
export interface PooledWorker {
  terminate(reason?: Error): void;
}

export interface WorkerPool<W extends PooledWorker> {
  /** An idle worker, or a new one (`fresh`: it still has to load what every file needs). */
  take(): { worker: W; fresh: boolean };
  /** Back after its file: kept for the next one when `reusable` (its state was reset), else ended. */
  give(worker: W, reusable: boolean): void;
  /** Ends the idle workers; busy ones end when given back. */
  endIdle(): void;
  /** How many workers are idle now. */
  idleCount(): number;
}

export function createWorkerPool<W extends PooledWorker>(start: () => W, keep: number): WorkerPool<W> {
  const idle: W[] = [];
  return {
    take() {
      const worker = idle.pop();
      return worker ? { worker, fresh: false } : { worker: start(), fresh: true };
    },
    give(worker, reusable) {
      if (reusable && idle.length < keep && !idle.includes(worker)) idle.push(worker);
      else if (!idle.includes(worker)) worker.terminate();
    },
    endIdle() {
      for (const worker of idle.splice(0)) worker.terminate();
    },
    idleCount: () => idle.length,
  };
}
