// The order in which thumbnails are asked of the media worker (media.ts). A grid that scrolls fast mounts and
// unmounts rows many times a second; handing each of their thumbnails to the worker at once would have it fetch and
// decrypt all of them, the rows long gone first, while the screen the person stopped at waits (12.6 s for the last
// screen of a fast scroll through 10,000 photos). Here a request waits until one of `concurrency` places is free, a
// request nobody wants any more (its cell unmounted: the caller's AbortSignal) leaves the queue before it starts, and
// the newest requests go first: the rows that just came into view, in the order they were asked within one render
// (top to bottom), before rows asked for earlier. One request per key is shared by everyone who asks for it.

/** The error a caller's promise rejects with when its signal aborts first. */
function abortError(): Error {
  return new DOMException('the thumbnail is no longer wanted', 'AbortError');
}

interface Caller<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

interface Entry<T> {
  start: () => Promise<T>;
  callers: Set<Caller<T>>;
  started: boolean;
  /** The batch (one synchronous run of requests, such as the effects of one render) it was last asked in. */
  batch: number;
  /** Its place within all requests, for the order within a batch. */
  order: number;
}

export interface RequestQueue<T> {
  /**
   * The value of `key`: `start()` once a place is free, unless a request for `key` is already waiting or running (then
   * that one's). With `signal`, aborting lets go of it: the promise rejects with an AbortError, and a request that
   * nobody wants any more and has not started is dropped.
   */
  get(key: string, start: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Rejects every caller with `reason` and forgets every request (those running still end, unheard). */
  clear(reason: Error): void;
  /** Requests waiting for a place. */
  readonly waiting: number;
  /** Requests started and not ended. */
  readonly running: number;
}

export function requestQueue<T>(concurrency: number): RequestQueue<T> {
  const entries = new Map<string, Entry<T>>();
  let running = 0;
  let batch = 0;
  let batchOpen = false;
  let order = 0;

  const currentBatch = () => {
    if (!batchOpen) {
      batch++;
      batchOpen = true;
      queueMicrotask(() => (batchOpen = false));
    }
    return batch;
  };

  /** The waiting entry to start next: of the newest batch, the first asked in it. */
  const next = (): [string, Entry<T>] | undefined => {
    let best: [string, Entry<T>] | undefined;
    for (const pair of entries) {
      const entry = pair[1];
      if (entry.started) continue;
      const bestEntry = best?.[1];
      if (
        !bestEntry ||
        entry.batch > bestEntry.batch ||
        (entry.batch === bestEntry.batch && entry.order < bestEntry.order)
      ) {
        best = pair;
      }
    }
    return best;
  };

  const pump = () => {
    while (running < concurrency) {
      const found = next();
      if (!found) return;
      const [key, entry] = found;
      entry.started = true;
      running++;
      const settle = (each: (caller: Caller<T>) => void) => {
        running--;
        if (entries.get(key) === entry) entries.delete(key);
        for (const caller of entry.callers) each(caller);
        entry.callers.clear();
        pump();
      };
      // A start that throws at once fails like one that rejects.
      const started = (async () => entry.start())();
      started.then(
        (value) => settle((caller) => caller.resolve(value)),
        (error: unknown) => settle((caller) => caller.reject(error)),
      );
    }
  };

  return {
    get(key, start, signal) {
      if (signal?.aborted) return Promise.reject(abortError());
      let entry = entries.get(key);
      if (!entry) {
        entry = { start, callers: new Set(), started: false, batch: 0, order: 0 };
        entries.set(key, entry);
      }
      // Asked again: it moves up with the newest.
      if (!entry.started) {
        entry.batch = currentBatch();
        entry.order = ++order;
      }
      const current = entry;
      const promise = new Promise<T>((resolve, reject) => {
        const caller: Caller<T> = { resolve, reject };
        current.callers.add(caller);
        signal?.addEventListener(
          'abort',
          () => {
            if (!current.callers.delete(caller)) return;
            reject(abortError());
            if (current.callers.size === 0 && !current.started && entries.get(key) === current) entries.delete(key);
          },
          { once: true },
        );
      });
      pump();
      return promise;
    },

    clear(reason) {
      const all = [...entries.values()];
      entries.clear();
      // What is running still ends (and calls pump, which finds nothing of before); its place is given back then.
      for (const entry of all) {
        for (const caller of entry.callers) caller.reject(reason);
        entry.callers.clear();
      }
    },

    get waiting() {
      let count = 0;
      for (const entry of entries.values()) if (!entry.started) count++;
      return count;
    },

    get running() {
      return running;
    },
  };
}
