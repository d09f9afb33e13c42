// The streamed download where no file can be picked (Firefox, Safari): the page hands the stream to the app's
// download service worker (public/downloads/sw.js, scope /downloads/) over a MessageChannel, then opens
// /downloads/<id>/<name>; the worker answers with the stream as an attachment and asks the page for each chunk
// as the browser writes, so the download is never whole in memory. Without a service worker (a private window,
// an insecure origin, a failed registration) `streamThroughServiceWorker` answers false and save.ts falls back.

const SCRIPT = '/downloads/sw.js';
const SCOPE = '/downloads/';
/** Firefox ends a service worker that receives no event for 30 s, even while it answers a request. */
const KEEP_ALIVE_MS = 10_000;
/** How long the worker may take to take a download before the Blob path is used instead. */
export const READY_TIMEOUT_MS = 5_000;

let registration: Promise<ServiceWorker | undefined> | undefined;

function activated(worker: ServiceWorker): Promise<ServiceWorker> {
  if (worker.state === 'activated') return Promise.resolve(worker);
  return new Promise((resolve, reject) => {
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve(worker);
      else if (worker.state === 'redundant') reject(new Error('the download worker did not start'));
    });
  });
}

/** The active download worker, registered on first use; undefined where there can be none. */
function downloadWorker(): Promise<ServiceWorker | undefined> {
  const container =
    typeof navigator === 'undefined' ? undefined : (navigator.serviceWorker as ServiceWorkerContainer | undefined);
  if (!container || !window.isSecureContext) return Promise.resolve(undefined);
  // A private window may refuse, at once or later: then there is no worker.
  registration ??= Promise.resolve()
    .then(() => container.register(SCRIPT, { scope: SCOPE }))
    .then((registered) => {
      const worker = registered.active ?? registered.waiting ?? registered.installing;
      return worker ? activated(worker) : undefined;
    })
    .catch(() => undefined);
  return registration;
}

export interface ServiceWorkerDownload {
  name: string;
  signal?: AbortSignal;
}

/**
 * Streams `stream` to a file through the download worker. Answers false, without reading the stream, when there is
 * no such worker or it does not take the download within READY_TIMEOUT_MS; resolves true once the last byte went to the browser; rejects with the reason of an abort (the
 * page's or the person's in the browser's downloads: an AbortError) or the stream's error.
 */
export async function streamThroughServiceWorker(
  open: () => Promise<ReadableStream<Uint8Array>>,
  { name, signal }: ServiceWorkerDownload,
): Promise<boolean> {
  const worker = await downloadWorker();
  if (!worker) return false;
  const id = crypto.randomUUID();
  const channel = new MessageChannel();
  const port = channel.port1;
  const ready = new Promise<void>((resolve) => {
    port.onmessage = ({ data }: MessageEvent<{ type: string }>) => {
      if (data.type === 'ready') resolve();
    };
  });
  worker.postMessage({ type: 'download', id, name }, [channel.port2]);
  // From the first message on: opening the stream (the first original's fetch) can itself take longer than the
  // 30 s Firefox gives an idle worker, which would then forget the download.
  // Naming the download, the ping also tells the worker that this page still lives (a silent one's download fails).
  const keepAlive = setInterval(() => worker.postMessage({ type: 'ping', id }), KEEP_ALIVE_MS);
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answered = await Promise.race([
      ready.then(() => true),
      new Promise<boolean>((resolve) => (readyTimer = setTimeout(() => resolve(false), READY_TIMEOUT_MS))),
    ]);
    // A worker that never answers (stuck, or gone) leaves the download to the Blob path, the stream unread.
    if (!answered) return false;
    const reader = (await open()).getReader();
    await new Promise<void>((resolve, reject) => {
      let finished = false;
      const fail = (reason: unknown) => {
        if (finished) return;
        finished = true;
        port.postMessage({ type: 'error' });
        void reader.cancel(reason).catch(() => undefined);
        reject(reason instanceof Error ? reason : new Error('the download failed'));
      };
      const cancelled = () => fail(new DOMException('The download was cancelled.', 'AbortError'));
      signal?.addEventListener('abort', cancelled, { once: true });
      port.onmessage = ({ data }: MessageEvent<{ type: string }>) => {
        if (data.type === 'cancel') {
          cancelled();
          return;
        }
        if (data.type !== 'pull') return;
        reader.read().then(({ done, value }) => {
          // A read that ends after a cancel is no end of the download.
          if (finished) return;
          if (done) {
            finished = true;
            port.postMessage({ type: 'done' });
            resolve();
            return;
          }
          const chunk = value.slice().buffer;
          port.postMessage({ type: 'chunk', chunk }, [chunk]);
        }, fail);
      };
      const link = document.createElement('a');
      link.href = `${SCOPE}${id}/${encodeURIComponent(name)}`;
      link.rel = 'noopener';
      document.body.append(link);
      link.click();
      link.remove();
    });
    return true;
  } finally {
    clearTimeout(readyTimer);
    clearInterval(keepAlive);
    port.close();
  }
}
