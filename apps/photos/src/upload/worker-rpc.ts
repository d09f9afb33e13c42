// A small request/answer protocol between the main thread and a worker of ours (upload and media workers):
// each call names a method, may report progress before it settles, and answers a value or an error that
// keeps its name, message and `reason`. Errors are rebuilt as UploadError / DecryptionError on the main
// thread. Hand-written rather than comlink so that a call can stream progress and the photos app needs no
// further dependency.
import { DecryptionError } from '@ente/crypto/errors.ts';

import { UploadError, type UploadErrorReason } from './types.ts';

type Handler = (args: never, progress: (value: number) => void) => unknown;
/** The methods a worker offers: each takes one argument and a progress callback. */
export type WorkerMethods = Record<string, Handler>;

interface CallMessage {
  id: number;
  method: string;
  args: unknown;
}
type AnswerMessage =
  | { id: number; progress: number }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WorkerErrorData };

/**
 * The side of a worker: `scope` is the worker's global (`self`). With `progressEveryMs`, a call's progress is
 * posted at most that often (its first report at once, later ones dropped until the interval has passed): each
 * report costs the page a render, and the answer or the caller's next stage says where the work ended.
 */
export function serveWorkerMethods(
  scope: {
    postMessage(message: unknown, transfer?: Transferable[]): void;
    addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  },
  methods: WorkerMethods,
  transferOf: (value: unknown) => Transferable[] = () => [],
  { progressEveryMs = 0, now = () => performance.now() }: { progressEveryMs?: number; now?: () => number } = {},
): void {
  scope.addEventListener('message', (event: MessageEvent) => {
    const { id, method, args } = event.data as CallMessage;
    let postedAt = -Infinity;
    const progress = (value: number) => {
      const at = now();
      if (at - postedAt < progressEveryMs) return;
      postedAt = at;
      scope.postMessage({ id, progress: value } satisfies AnswerMessage);
    };
    void (async () => {
      try {
        const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
        if (!handler) throw new Error(`no method ${method}`);
        const value = await handler(args as never, progress);
        scope.postMessage({ id, ok: true, value } satisfies AnswerMessage, transferOf(value));
      } catch (e) {
        const error = e instanceof Error ? e : new Error(String(e));
        const reason = (error as { reason?: unknown }).reason;
        scope.postMessage({
          id,
          ok: false,
          error: { name: error.name, message: error.message, ...(typeof reason === 'string' ? { reason } : {}) },
        } satisfies AnswerMessage);
      }
    })();
  });
}

/** What the main thread calls: `call(method, args, {onProgress, transfer})`. */
export interface WorkerConnection<M extends WorkerMethods> {
  call<K extends keyof M & string>(
    method: K,
    args: Parameters<M[K]>[0],
    options?: { onProgress?: (value: number) => void; transfer?: Transferable[] },
  ): Promise<Awaited<ReturnType<M[K]>>>;
  /** Ends the worker; pending calls reject with `reason`. */
  terminate(reason?: Error): void;
}

/** A worker error as plain data; `rebuild` may turn it into an error class of the caller's (else the defaults). */
export interface WorkerErrorData {
  name: string;
  message: string;
  reason?: string;
}

export function connectWorker<M extends WorkerMethods>(
  worker: Worker,
  rebuild: (error: WorkerErrorData) => Error | undefined = () => undefined,
): WorkerConnection<M> {
  const pending = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void; onProgress?(n: number): void }
  >();
  let nextID = 1;
  let ended: Error | undefined;
  const failAll = (error: Error) => {
    ended ??= error;
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  worker.addEventListener('message', (event: MessageEvent) => {
    const answer = event.data as AnswerMessage;
    const call = pending.get(answer.id);
    if (!call) return;
    if ('progress' in answer) {
      call.onProgress?.(answer.progress);
      return;
    }
    pending.delete(answer.id);
    if (answer.ok) call.resolve(answer.value);
    else call.reject(rebuild(answer.error) ?? rebuildError(answer.error));
  });
  // A worker that dies (out of memory, a load failure) would leave its calls pending for ever.
  worker.addEventListener('error', () => failAll(new Error('the worker failed')));
  worker.addEventListener('messageerror', () => failAll(new Error('a worker message was lost')));
  return {
    call(method, args, options = {}) {
      if (ended) return Promise.reject(ended);
      const id = nextID++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, onProgress: options.onProgress });
        worker.postMessage({ id, method, args } satisfies CallMessage, options.transfer ?? []);
      });
    },
    terminate(reason = new UploadError('cancelled')) {
      worker.terminate();
      failAll(reason);
    },
  };
}

const uploadReasons: readonly string[] = [
  'unsupported',
  'tooLarge',
  'storageLimit',
  'network',
  'server',
  'unreadable',
  'cancelled',
  'unknown',
] satisfies UploadErrorReason[];

function rebuildError({ name, message, reason }: WorkerErrorData): Error {
  if (name === 'UploadError' && reason && uploadReasons.includes(reason)) {
    return new UploadError(reason as UploadErrorReason, message);
  }
  if (name === 'DecryptionError') return new DecryptionError(message);
  const error = new Error(message);
  error.name = name;
  return error;
}
