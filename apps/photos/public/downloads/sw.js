// The photos app's download service worker (apps/photos/src/download/stream-download.ts): where no file can be
// picked (Firefox, Safari), a page hands it a download as a stream over a MessageChannel, then opens
// /downloads/<id>/<name>, which this worker answers with that stream as an attachment, so the browser writes the
// file to disk as the bytes come and no download is ever whole in memory. Its scope is /downloads/ only: it
// controls no page and answers nothing else. It stores nothing; an id is random, used once and forgotten, and so
// is a download whose page went silent.
/// <reference lib="webworker" />

/** @type {ServiceWorkerGlobalScope} */
const worker = /** @type {any} */ (self);

/**
 * A page that gives no sign for this long (no answer to a pull, no keep-alive naming its download: the page pings
 * every 10 s) is gone: its tab was closed or reloaded. Its download fails instead of staying "in progress" for
 * ever, and a link it never opened is forgotten.
 */
const SILENCE_MS = 60_000;

/**
 * The downloads of the pages, by id, from the page's message until the download ends (or is forgotten).
 * `opened`: its link was asked for (it serves once); `onSilence`: what the page's silence does to it.
 * @typedef {{port: MessagePort, name: string, opened: boolean, silence?: ReturnType<typeof setTimeout>,
 *   onSilence: () => void}} Download
 * @type {Map<string, Download>}
 */
const downloads = new Map();

/** The page of download `id` gave a sign of life: its silence counts from now. */
function heard(/** @type {string} */ id) {
  const download = downloads.get(id);
  if (!download) return;
  clearTimeout(download.silence);
  download.silence = setTimeout(() => download.onSilence(), SILENCE_MS);
}

function forget(/** @type {string} */ id) {
  clearTimeout(downloads.get(id)?.silence);
  downloads.delete(id);
}

worker.addEventListener('install', () => void worker.skipWaiting());
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener('message', (event) => {
  const data = event.data;
  if (typeof data !== 'object' || data === null) return;
  // A page's keep-alive (Firefox ends an idle worker) needs no answer; naming its download, it says the page lives.
  if (data.type === 'ping') {
    if (typeof data.id === 'string') heard(data.id);
    return;
  }
  const port = event.ports[0];
  if (!port || data.type !== 'download' || typeof data.id !== 'string' || typeof data.name !== 'string') return;
  const id = data.id;
  forget(id);
  downloads.set(id, {
    port,
    name: data.name,
    opened: false,
    onSilence: () => {
      forget(id);
      port.close();
    },
  });
  heard(id);
  port.postMessage({ type: 'ready' });
});

/** @param {string} name */
function contentDisposition(name) {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename*=UTF-8''${encoded}`;
}

/**
 * The stream of download `id`, each chunk asked of the page when the browser wants more. A page silent for
 * SILENCE_MS (its tab gone) errors it, so the browser's download fails rather than waiting for ever.
 */
function bodyOf(/** @type {string} */ id, /** @type {Download} */ download) {
  const { port } = download;
  /** @type {(() => void) | undefined} */
  let answered;
  return new ReadableStream({
    start(controller) {
      download.onSilence = () => {
        forget(id);
        port.close();
        controller.error(new Error('the page stopped answering'));
        answered?.();
      };
    },
    pull(controller) {
      return new Promise((resolve) => {
        answered = () => resolve(undefined);
        port.onmessage = ({ data }) => {
          heard(id);
          if (data.type === 'chunk') controller.enqueue(new Uint8Array(data.chunk));
          else if (data.type === 'done') {
            forget(id);
            controller.close();
          } else {
            forget(id);
            controller.error(new Error('the download failed'));
          }
          resolve(undefined);
        };
        port.postMessage({ type: 'pull' });
      });
    },
    cancel() {
      // The person cancelled in the browser's downloads: the page stops reading (and closes the channel).
      forget(id);
      port.postMessage({ type: 'cancel' });
    },
  });
}

worker.addEventListener('fetch', (event) => {
  const match = /^\/downloads\/([0-9a-f-]{36})\//.exec(new URL(event.request.url).pathname);
  if (!match?.[1]) return;
  const id = match[1];
  const download = downloads.get(id);
  if (!download || download.opened) {
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
  download.opened = true;
  heard(id);
  event.respondWith(new Response(bodyOf(id, download), { headers }));
});
