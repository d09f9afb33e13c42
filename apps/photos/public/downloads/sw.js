// The photos app's download service worker (apps/photos/src/download/stream-download.ts): where no file can be
// picked (Firefox, Safari), a page hands it a download as a stream over a MessageChannel, then opens
// /downloads/<id>/<name>, which this worker answers with that stream as an attachment, so the browser writes the
// file to disk as the bytes come and no download is ever whole in memory. Its scope is /downloads/ only: it
// controls no page and answers nothing else. It stores nothing; an id is random, used once and forgotten.
/// <reference lib="webworker" />

/** @type {ServiceWorkerGlobalScope} */
const worker = /** @type {any} */ (self);

/** @type {Map<string, {port: MessagePort, name: string}>} */
const waiting = new Map();

worker.addEventListener('install', () => void worker.skipWaiting());
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener('message', (event) => {
  const data = event.data;
  const port = event.ports[0];
  // A page's keep-alive (Firefox ends an idle worker) needs no answer.
  if (!port || typeof data !== 'object' || data === null || data.type !== 'download') return;
  if (typeof data.id !== 'string' || typeof data.name !== 'string') return;
  waiting.set(data.id, { port, name: data.name });
  port.postMessage({ type: 'ready' });
});

/** @param {string} name */
function contentDisposition(name) {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename*=UTF-8''${encoded}`;
}

/** The stream of one download, each chunk asked of the page when the browser wants more. */
function bodyOf(/** @type {MessagePort} */ port) {
  return new ReadableStream({
    pull(controller) {
      return new Promise((resolve) => {
        port.onmessage = ({ data }) => {
          if (data.type === 'chunk') controller.enqueue(new Uint8Array(data.chunk));
          else if (data.type === 'done') controller.close();
          else controller.error(new Error('the download failed'));
          resolve(undefined);
        };
        port.postMessage({ type: 'pull' });
      });
    },
    cancel() {
      // The person cancelled in the browser's downloads: the page stops reading (and closes the channel).
      port.postMessage({ type: 'cancel' });
    },
  });
}

worker.addEventListener('fetch', (event) => {
  const match = /^\/downloads\/([0-9a-f-]{36})\//.exec(new URL(event.request.url).pathname);
  if (!match?.[1]) return;
  const download = waiting.get(match[1]);
  waiting.delete(match[1]);
  if (!download) {
    // 204 No Content: a navigation answered with it stays where it was. A 404 page would replace the app's tab
    // (its uploads cancelled) when an old or made-up download link is opened.
    event.respondWith(new Response(null, { status: 204 }));
    return;
  }
  const headers = {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': contentDisposition(download.name),
    'X-Content-Type-Options': 'nosniff',
  };
  event.respondWith(new Response(bodyOf(download.port), { headers }));
});
