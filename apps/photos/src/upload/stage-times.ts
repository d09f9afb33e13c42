// Where one file's upload spends its time, stage by stage, in ms. Both sides keep one: the main thread times its
// calls and requests (pipeline.ts), the worker the parts of a call (file-job.ts: reading, staging writes, the
// thumbnail's decode, draw and encode). Taking the times costs a few `performance.now()` a file; they are
// handed on only when a profile is asked for (the photos-app bench's `--profile`, see uploader.ts).

export type StageTimes = Record<string, number>;

export interface StageClock {
  /** Adds the time `work` takes to `stage` (stages met twice add up). */
  time<T>(stage: string, work: Promise<T> | (() => Promise<T>)): Promise<T>;
  /** Adds `ms` to `stage`. */
  add(stage: string, ms: number): void;
  /** The times so far; `reset` starts a new record. */
  take(reset?: boolean): StageTimes;
}

export function stageClock(now: () => number = () => performance.now()): StageClock {
  let times: StageTimes = {};
  const add = (stage: string, ms: number) => {
    times[stage] = (times[stage] ?? 0) + ms;
  };
  return {
    async time(stage, work) {
      const from = now();
      try {
        return await (typeof work === 'function' ? work() : work);
      } finally {
        add(stage, now() - from);
      }
    },
    add,
    take(reset = false) {
      const taken = times;
      if (reset) times = {};
      return taken;
    },
  };
}

/** One file's profile as the uploader hands it to a profile sink. */
export interface UploadProfileEntry {
  /** The title's extension, lower case ("jpg", "heic", "mp4"), to group files by kind. */
  kind: string;
  bytes: number;
  outcome: string;
  /** `performance.now()` when the file started and ended. */
  startedAt: number;
  endedAt: number;
  /** Whether the file had a worker of its own started for it (not one reused from an earlier file). */
  newWorker: boolean;
  stages: StageTimes;
}
