// The password strength estimate of the sign-up form (docs/protocol.md#sign-up): zxcvbn's score, read
// as weak (below 2), moderate (2) or strong (3 or more). Advisory only: any password of 8 characters
// or more is accepted. The estimator and its dictionaries are several hundred kB, and building them
// blocks for a few hundred milliseconds, so they are never part of a page's first load and never run on
// the UI thread: in a browser they load in a worker of their own (password-strength.worker.ts) when the
// user first types a password, once per page load. Without workers (Node, jest) they run in-process.

export type PasswordStrength = 'weak' | 'moderate' | 'strong';

/** Estimates the strength of a password. */
export type StrengthEstimator = (password: string) => Promise<PasswordStrength>;

let loading: Promise<StrengthEstimator> | undefined;

/** Loads the estimator (once; a failed load is tried again on the next call). */
export function loadStrengthEstimator(): Promise<StrengthEstimator> {
  loading ??= (canUseWorker() ? workerEstimator() : inProcessEstimator()).catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}

/** The strength for a zxcvbn score (0 to 4). */
export function strengthOfScore(score: number): PasswordStrength {
  return score < 2 ? 'weak' : score === 2 ? 'moderate' : 'strong';
}

function canUseWorker(): boolean {
  return typeof window !== 'undefined' && typeof Worker !== 'undefined';
}

async function inProcessEstimator(): Promise<StrengthEstimator> {
  const { createScorer } = await import('./zxcvbn-scorer.ts');
  const score = await createScorer();
  return (password) => Promise.resolve(strengthOfScore(score(password)));
}

/** One worker per page; each request carries an id, and the worker answers with the score for it. */
function workerEstimator(): Promise<StrengthEstimator> {
  const worker = new Worker(new URL('./password-strength.worker.ts', import.meta.url), {
    type: 'module',
    name: 'ente-password-strength',
  });
  const waiting = new Map<number, { resolve: (score: number) => void; reject: (e: Error) => void }>();
  let nextID = 0;
  worker.onmessage = ({ data }: MessageEvent<{ id: number; score?: number; error?: string }>) => {
    const request = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.score === undefined) request?.reject(new Error(data.error ?? 'the strength estimator failed'));
    else request?.resolve(data.score);
  };
  worker.onerror = () => {
    for (const request of waiting.values()) request.reject(new Error('the strength estimator failed'));
    waiting.clear();
    loading = undefined;
  };
  return Promise.resolve((password) => {
    const id = nextID++;
    return new Promise<number>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, password });
    }).then(strengthOfScore);
  });
}
