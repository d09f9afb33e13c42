// Photos app benchmark: the photos web app in Chromium against the local stack.
//   node --import tsx bench/photos-app.mjs --part gallery [--files 10000] [--runs 5] [--speed 4000] [--fetch-speed 1200]
//                 [--no-scroll] [--no-build]
//                 [--scroll page|gesture|both] [--scroll-runs 1] [--scroll-px all] [--profile]
//   node --import tsx bench/photos-app.mjs --part upload  [--mix 200] [--profile]
//   node --import tsx bench/photos-app.mjs --part big     [--big-mib 1024] [--profile]
// (npm run bench:photos-app --workspace @ente/bench -- --part …). Each part starts the stack as `npm start`
// does, with a fresh database (so the ports of `npm start` must be free: run it under `flock /tmp/stack.lock`
// on a shared machine, one part at a time), and prints one JSON object, also written to
// bench/results/photos-app-<part>.json.
//
// - gallery: an account with --files photos in one album, made over HTTP by a scripted client (@ente/crypto's
//   libsodium calls, the wire steps of docs/protocol.md#photos: small real JPEG thumbnails, tiny files). The gallery
//   is opened once (the library's IndexedDB cache and the thumbnail cache filled), then:
//   `openFromCache`: --runs further visits, each from the navigation's start to the first frame with a decrypted
//   thumbnail on screen (target ≤ 1 s), and to the first frame whose every visible cell has its thumbnail;
//   `openWithApiHeld`: the same with every request to the API held unanswered until the screen is full (or 20 s):
//   what the page shows before the network answers;
//   `scroll`: the gallery scrolled from top to bottom at --speed px/s (scrollBy per animation frame, the distance
//   of each frame proportional to its time, so the speed is steady whatever the frame rate), recorded with a
//   Chromium trace (CDP Tracing, frame categories): frame times p50/p95/max and frames over 100 ms (target p95 ≤
//   16.7 ms, none over 100 ms), three times: with an empty thumbnail cache (at that speed the grid holds its fetches:
//   media/scroll-pace.ts), at --fetch-speed (under the pace that holds them: every thumbnail fetched from the server
//   as its row comes into view, which fills the cache), then at --speed again from the browser's cache.
// - upload: --mix files (JPEG, PNG, HEIC and videos, made at bench time from generated bases, each with bytes of
//   its own so that no two hash alike) picked as a folder through the Upload menu, until the panel says every one
//   ended; against a raw PUT of the same files from the same page to signed upload URLs (two at a time, as the
//   uploader); and the page's longest main-thread task meanwhile. With --profile, where each file's time went,
//   stage by stage (the uploader's stage times, upload/stage-times.ts).
// - big: the same for one video of --big-mib MiB.
// See bench/README.md ("Photos app") for how each figure is taken.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { crc32 } from 'node:zlib';

import { api, createAccount, passwordLogin, signInBrowser } from '@ente/e2e/api.ts';
import { serverCollections, serverFiles } from '@ente/e2e/photos-api.ts';

import { addPhoto, createAlbum } from './album-seed.mjs';
import { frameCauses, profileCategories } from './frame-causes.mjs';
import { median, startLocalStack, trackRequests } from './local-stack.mjs';
import { positiveOption, saveReport } from './numbers.mjs';

const targets = { firstThumbnailMs: 1000, frameP95Ms: 16.7, framesOver100Ms: 0 };
const viewport = { width: 1280, height: 800 };
/** The trace events of frames counted in a scroll's report (`eventCounts`). */
const frameEventNames = ['BeginFrame', 'BeginMainThreadFrame', 'ActivateLayerTree', 'DrawFrame', 'DroppedFrame'];

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'gallery' },
    files: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    speed: { type: 'string', default: '4000' },
    'fetch-speed': { type: 'string', default: '1200' },
    mix: { type: 'string', default: '200' },
    'big-mib': { type: 'string', default: '1024' },
    'no-build': { type: 'boolean', default: false },
    'no-scroll': { type: 'boolean', default: false },
    scroll: { type: 'string', default: 'page' },
    profile: { type: 'boolean', default: false },
    'scroll-runs': { type: 'string', default: '1' },
    'scroll-px': { type: 'string' },
  },
});
const positive = (name) => positiveOption(values, name);
const part = values.part;
if (!['gallery', 'upload', 'big'].includes(part)) throw new Error(`unknown --part ${part}`);
const fileCount = positive('files');
const runs = positive('runs');
const speed = positive('speed');
const fetchSpeed = positive('fetch-speed');
const mixCount = positive('mix');
const bigMiB = positive('big-mib');
const scrollRuns = positive('scroll-runs');
// --scroll-px: every scroll stops after that many px (the whole grid unless told). --profile: one more scroll, traced
// with the JS sampler and the main thread's events (frame-causes.mjs), which fill the trace buffer within about a
// minute: it scrolls --scroll-px (100,000 px unless told).
const scrollLimitPx = values['scroll-px'] !== undefined ? positive('scroll-px') : Infinity;
const profileLimitPx = Number.isFinite(scrollLimitPx) ? scrollLimitPx : 100_000;
// --scroll both: page-driven scrolls, then one more from the browser cache driven by the gesture.
const scrollDriver = values.scroll === 'both' ? 'page' : values.scroll;
const gestureToo = values.scroll === 'both';
if (!['page', 'gesture'].includes(scrollDriver)) throw new Error(`unknown --scroll ${values.scroll}`);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'ente-bench-photos-app-'));
const stack = await startLocalStack('photos-app', {
  serverEnv: { PHOTOS_UPLOAD_URLS_PER_MINUTE: '0' },
  build: !values['no-build'],
});
const { browser, machine, urls } = stack;
const report = {
  generatedAt: new Date().toISOString(),
  part,
  browser: `Chromium ${browser.version()} (headless)`,
  machine: { ...machine, loadAverage1mAtStart: os.loadavg()[0] },
};
try {
  if (part === 'gallery') Object.assign(report, await galleryPart());
  else Object.assign(report, await uploadPart(part));
  saveReport(`photos-app-${part}`, report);
} finally {
  await stack.stop();
  rmSync(scratch, { recursive: true, force: true });
}

// The gallery: 10,000 photos.

async function galleryPart() {
  const { account, token } = await createAccount({ app: 'photos' });
  const seedFrom = performance.now();
  await seedLibrary(account, token, fileCount);
  const seedSeconds = (performance.now() - seedFrom) / 1000;
  log(`seeded ${fileCount} files in ${seedSeconds.toFixed(0)} s`);

  const context = await browser.newContext({ viewport, timezoneId: 'UTC', locale: 'en-US' });
  await context.addInitScript(watchFirstThumbnails);
  const page = await context.newPage();
  const api = trackRequests(page, (request) => request.url().startsWith(urls.server));
  const errors = [];
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));

  // First visit: the library pulled whole (its cache filled) and the first screen's thumbnails fetched.
  await signInBrowser(page, 'photos', account, await passwordLogin(account, 'photos'), '/gallery');
  const firstVisit = await screenTimes(page);
  await api.idle();
  const rowCount = await page.getByRole('grid').getAttribute('aria-rowcount');
  log(`first visit: ${JSON.stringify(firstVisit)}, ${rowCount} rows`);

  const fromCache = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(`${urls.photos}/gallery`);
    fromCache.push(await screenTimes(page));
    await api.idle();
  }
  log(`from the cache: ${fromCache.map((times) => Math.round(times.firstThumbnailMs)).join(', ')} ms`);

  const held = await openWithApiHeld(context, page);
  log(`API held: ${JSON.stringify(held)}`);
  await api.idle();

  let scrollFresh;
  let scrollFetching;
  let scrollCached;
  const cachedAgain = [];
  let byGesture;
  let profiledScroll;
  if (!values['no-scroll']) {
    // Each scroll in a new document whose first screen is filled and whose requests have ended.
    const reopened = async () => {
      await page.goto(`${urls.photos}/gallery`);
      await screenTimes(page);
      await api.idle();
      return page;
    };
    scrollFresh = await scrollThrough(await reopened(), 'thumbnails from the server (empty cache)');
    scrollFetching = await scrollThrough(await reopened(), `thumbnails from the server at ${fetchSpeed} px/s`, {
      pxPerSecond: fetchSpeed,
    });
    scrollCached = await scrollThrough(await reopened(), 'thumbnails from the browser cache');
    // --scroll-runs: more scrolls from the browser cache (the server's thumbnails are all in it by now, unless
    // --scroll-px cut the scroll at --fetch-speed short).
    for (let run = 1; run < scrollRuns; run++) {
      cachedAgain.push(await scrollThrough(await reopened(), `thumbnails from the browser cache, again (${run + 1})`));
    }
    if (values.profile) {
      profiledScroll = await scrollThrough(await reopened(), 'profiled, thumbnails from the browser cache', {
        profiled: true,
        limitPx: profileLimitPx,
      });
    }
    if (gestureToo) {
      byGesture = await scrollThrough(await reopened(), 'thumbnails from the browser cache, by a wheel gesture', {
        driver: 'gesture',
      });
    }
  }
  await context.close();

  const scrolls = scrollFresh ? [scrollFresh, scrollFetching, scrollCached, ...cachedAgain] : [];
  const firstThumbnail = fromCache.map((times) => times.firstThumbnailMs);
  const fullScreen = fromCache.map((times) => times.fullScreenMs);
  return {
    files: fileCount,
    gridRows: Number(rowCount),
    seedSeconds: round(seedSeconds),
    viewport,
    firstVisit,
    openFromCache: {
      runs: fromCache,
      firstThumbnailMsMedian: round(median(firstThumbnail)),
      fullScreenMsMedian: round(median(fullScreen)),
    },
    openWithApiHeld: held,
    scroll: scrollFresh && {
      speedPxPerSecond: speed,
      fetchSpeedPxPerSecond: fetchSpeed,
      driver: scrollDriver,
      fromServer: scrollFresh,
      fromServerFetching: scrollFetching,
      fromBrowserCache: scrollCached,
      fromBrowserCacheAgain: cachedAgain,
      ...(byGesture ? { fromBrowserCacheByGesture: byGesture } : {}),
      ...(profiledScroll ? { profiled: profiledScroll } : {}),
    },
    pageErrors: errors,
    targets: {
      firstThumbnailWithin1s: median(firstThumbnail) <= targets.firstThumbnailMs,
      scrollP95: scrollFresh && Math.max(...scrolls.map((scroll) => scroll.trace.p95)) <= targets.frameP95Ms,
      noFrameOver100ms:
        scrollFresh && scrolls.reduce((sum, scroll) => sum + scroll.trace.over100, 0) === targets.framesOver100Ms,
    },
  };
}

/**
 * In every document, from its start: each animation frame, whether the grid has cells, whether one on screen
 * shows its decrypted thumbnail (an <img> loaded from its object URL), and whether every cell on screen does.
 * Times are the frame's, in ms since the navigation's start. Runs in the page (an init script).
 */
function watchFirstThumbnails() {
  const times = {};
  window.__photosBench = times;
  const onScreen = (cell) => {
    const box = cell.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
  };
  const shown = (cell) => {
    const image = cell.querySelector('img');
    return image !== null && image.complete && image.naturalWidth > 0;
  };
  const watch = (frameTime) => {
    const cells = [...document.querySelectorAll('[role="grid"] [role="gridcell"][data-file-id]')].filter(onScreen);
    if (cells.length > 0) {
      times.gridMs ??= frameTime;
      const done = cells.filter(shown).length;
      if (done > 0) times.firstThumbnailMs ??= frameTime;
      if (done === cells.length) {
        times.fullScreenMs = frameTime;
        times.cellsOnScreen = cells.length;
        return;
      }
    }
    if (frameTime < 60_000) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}

async function screenTimes(page) {
  await page.waitForFunction(() => window.__photosBench?.fullScreenMs !== undefined, undefined, { timeout: 120_000 });
  const times = await page.evaluate(() => window.__photosBench);
  return Object.fromEntries(Object.entries(times).map(([name, value]) => [name, round(value)]));
}

/**
 * A visit with every request to the API held (not answered, not failed) until the screen is full of
 * thumbnails or 20 s passed; then they go on. Says how many were held, and of which routes.
 */
async function openWithApiHeld(context, page) {
  const heldRoutes = [];
  const seen = [];
  const onRequest = (request) => {
    if (request.url().startsWith(urls.server)) seen.push(new URL(request.url()).pathname.replace(/\d+/g, ':id'));
  };
  context.on('request', onRequest);
  let release;
  const released = new Promise((resolve) => (release = resolve));
  const pattern = `${urls.server}/**`;
  await context.route(pattern, async (route) => {
    heldRoutes.push(new URL(route.request().url()).pathname.replace(/\d+/g, ':id'));
    await released;
    await route.continue().catch(() => undefined);
  });
  await page.goto(`${urls.photos}/gallery`);
  const full = await page
    .waitForFunction(() => window.__photosBench?.fullScreenMs !== undefined, undefined, { timeout: 20_000 })
    .then(
      () => true,
      () => false,
    );
  const times = await page.evaluate(() => window.__photosBench);
  const heldCount = heldRoutes.length;
  const seenCount = seen.length;
  context.off('request', onRequest);
  release();
  await context.unroute(pattern);
  const tally = (list) => {
    const counts = {};
    for (const route of list) counts[route] = (counts[route] ?? 0) + 1;
    return counts;
  };
  return {
    screenFilledWhileHeld: full,
    ...Object.fromEntries(Object.entries(times).map(([name, value]) => [name, round(value)])),
    requestsHeld: heldCount,
    routesHeld: tally(heldRoutes.slice(0, heldCount)),
    // Requests to the API the browser reported meanwhile (a worker's too): any not held went to the network.
    apiRequestsSeen: tally(seen.slice(0, seenCount)),
  };
}

/**
 * Scrolls the window from the top of the grid to the bottom at `speed` px/s, moved by scrollBy once per
 * animation frame (by the frame's time × the speed), with a Chromium trace of the frames running, and the
 * page's own record of its animation frames and long animation frames. Returns the frame figures.
 */
async function scrollThrough(
  page,
  what,
  { driver = scrollDriver, profiled = false, limitPx = scrollLimitPx, pxPerSecond = speed } = {},
) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
  const loadAverage1m = os.loadavg()[0];
  const session = await page.context().newCDPSession(page);
  const events = [];
  session.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const traced = new Promise((resolve) => session.once('Tracing.tracingComplete', resolve));
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'blink.user_timing'];
  await session.send('Tracing.start', {
    traceConfig: {
      includedCategories: profiled ? [...categories, ...profileCategories] : categories,
      // The profile's events fill the default buffer long before the end of the scroll.
      recordMode: profiled ? 'recordAsMuchAsPossible' : 'recordUntilFull',
    },
    ...(profiled ? { bufferSizeInKb: 1_500_000 } : {}),
    transferMode: 'ReportEvents',
  });
  // --scroll gesture: Chromium's own synthetic wheel scroll (the compositor scrolls, as under a person's wheel or
  // trackpad), sent once the page has marked the start; the page then only watches.
  const gesture =
    driver === 'gesture'
      ? page
          .waitForFunction(() => performance.getEntriesByName('photos-bench:scroll-start').length > 0)
          .then(() => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight - window.scrollY))
          .then((distance) => Math.min(distance, limitPx))
          .then((distance) =>
            session.send('Input.synthesizeScrollGesture', {
              x: viewport.width / 2,
              y: viewport.height / 2,
              yDistance: -Math.ceil(distance),
              speed: pxPerSecond,
              gestureSourceType: 'mouse',
              preventFling: true,
            }),
          )
          .finally(() => page.evaluate(() => (window.__photosBenchGestureDone = true)))
      : undefined;
  const inPage = await page.evaluate(
    async ([pxPerSecond, byPage, limitPx]) => {
      const startY = window.scrollY;
      const loafs = [];
      const observer =
        typeof PerformanceObserver !== 'undefined' &&
        PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')
          ? new PerformanceObserver((list) => loafs.push(...list.getEntries().map((entry) => entry.duration)))
          : undefined;
      observer?.observe({ type: 'long-animation-frame' });
      // Thumbnails drawn during the scroll: each <img> of a cell that loaded (load events do not bubble; captured).
      let thumbnailsShown = 0;
      const countShown = (event) => {
        if (event.target instanceof HTMLImageElement && event.target.closest('[role="gridcell"]')) thumbnailsShown++;
      };
      document.addEventListener('load', countShown, true);
      performance.mark('photos-bench:scroll-start');
      const deltas = [];
      const startedAt = performance.now();
      await new Promise((resolve) => {
        let last;
        const step = (time) => {
          if (last !== undefined) {
            deltas.push(time - last);
            if (byPage) window.scrollBy(0, (pxPerSecond * (time - last)) / 1000);
          }
          last = time;
          const bottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
          if (bottom || window.scrollY - startY >= limitPx || window.__photosBenchGestureDone) resolve();
          else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      });
      performance.mark('photos-bench:scroll-end');
      document.removeEventListener('load', countShown, true);
      const stoppedAt = performance.now();
      const seconds = (stoppedAt - startedAt) / 1000;
      // Once the scroll stops: how long until every cell on screen shows its thumbnail (work queued for the rows
      // scrolled past delays the last screen's).
      const settleMs = await new Promise((resolve) => {
        const check = (time) => {
          const cells = [...document.querySelectorAll('[role="grid"] [role="gridcell"][data-file-id]')].filter(
            (cell) => {
              const box = cell.getBoundingClientRect();
              return box.bottom > 0 && box.top < window.innerHeight;
            },
          );
          const shown = (cell) => {
            const image = cell.querySelector('img');
            return image !== null && image.complete && image.naturalWidth > 0;
          };
          if (cells.length > 0 && cells.every(shown)) resolve(time - stoppedAt);
          else if (time - stoppedAt > 60_000) resolve(NaN);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      });
      observer?.disconnect();
      return {
        seconds,
        settleMs,
        scrolledPx: window.scrollY,
        thumbnailsShown,
        rafDeltas: deltas,
        longAnimationFrames: loafs,
      };
    },
    [pxPerSecond, driver === 'page', limitPx],
  );
  await gesture;
  await session.send('Tracing.end');
  const { dataLossOccurred } = await traced;
  await session.detach();
  // Events the browser dropped (its buffer full) would make the figures wrong: said, not hidden.
  if (dataLossOccurred) log(`the trace lost events (its buffer was full): its figures are incomplete`);
  const trace = { ...frameTimes(events), dataLossOccurred };
  const profile = profiled ? longFrameCauses(events) : undefined;
  if (profile) log(`long frames (${what}):\n${describeCauses(profile)}`);
  const raf = stats(inPage.rafDeltas);
  log(
    `scroll (${what}): ${inPage.seconds.toFixed(1)} s, trace frames p50 ${trace.p50} p95 ${trace.p95} max ${trace.max} ` +
      `over 100 ms ${trace.over100}; rAF p95 ${raf.p95}; long animation frames ${inPage.longAnimationFrames.length}; ` +
      `last screen filled ${Math.round(inPage.settleMs)} ms after the stop; ${inPage.thumbnailsShown} thumbnails shown`,
  );
  return {
    driver,
    speedPxPerSecond: pxPerSecond,
    loadAverage1m: round(loadAverage1m),
    seconds: round(inPage.seconds),
    lastScreenFilledAfterMs: round(inPage.settleMs),
    scrolledPx: Math.round(inPage.scrolledPx),
    thumbnailsShown: inPage.thumbnailsShown,
    trace,
    animationFrames: raf,
    longAnimationFrames: {
      count: inPage.longAnimationFrames.length,
      max: round(Math.max(0, ...inPage.longAnimationFrames)),
      over100: inPage.longAnimationFrames.filter((duration) => duration > 100).length,
    },
    profile,
  };
}

/** The frames of the scroll (µs), and what the page's threads did in the long ones (frame-causes.mjs). */
function longFrameCauses(events) {
  const start = events.find((event) => event.name === 'photos-bench:scroll-start');
  const to = events.find((event) => event.name === 'photos-bench:scroll-end')?.ts;
  const frames = drawnFrameStarts(events, start.ts, to, start.pid);
  const intervals = frames.slice(1).map((end, index) => ({ start: frames[index], end }));
  return frameCauses(events, intervals, { mainPid: start.pid, mainTid: start.tid });
}

function describeCauses({ over, severe, worst }) {
  const list = (entries) => entries.map((entry) => `${entry.name} ${entry.ms ?? entry.samples}`).join(', ');
  const part = (title, breakdown) =>
    [
      `  ${title}: ${breakdown.frames} frames, ${breakdown.totalMs} ms`,
      `    main thread by cause (ms): ${list(breakdown.mainThreadByCause)}`,
      `    main thread by event (ms): ${list(breakdown.mainThreadByEvent.slice(0, 10))}`,
      `    other threads busy (ms): ${list(breakdown.otherThreadsBusyMs.slice(0, 6))}`,
      `    JS self (samples of ${breakdown.jsSamples}): ${list(breakdown.jsSelf.slice(0, 10))}`,
      `    JS inclusive: ${list(breakdown.jsInclusive.slice(0, 10))}`,
    ].join('\n');
  const worstLines = worst.map((frame) => `    ${frame.ms} ms: ${list(frame.mainThread)}`);
  return [
    part(`over ${over.boundMs} ms`, over),
    part(`over ${severe.boundMs} ms`, severe),
    '  longest:',
    ...worstLines,
  ].join('\n');
}

/**
 * Frame times from the trace, as DevTools' frames track counts them: the frames the page's compositor drew between the
 * two marks the scroll set, each from its `BeginFrame` (the vsync it was begun for) to the next drawn frame's; a frame
 * Chromium began and did not draw (`DroppedFrame`, or no `DrawFrame` for its sequence number) ends no frame, so a drop
 * shows as a frame of two vsyncs or more. Not the time between two `DrawFrame` events: when each draw happens within
 * its vsync varies with the cores' load (up to 30 ms after its BeginFrame on 2 shared cores), so those intervals
 * scatter around 16.7 ms even when every vsync was drawn, and about half of them exceeded it (`drawIntervals` keeps
 * them, for comparison with the figures taken before 27 November, 21:00 UTC).
 */
function frameTimes(events) {
  const fromEvent = events.find((event) => event.name === 'photos-bench:scroll-start');
  const from = fromEvent.ts;
  const to = events.find((event) => event.name === 'photos-bench:scroll-end')?.ts;
  const counts = {};
  for (const event of events) {
    if (!frameEventNames.includes(event.name) || event.ts < from || event.ts > to) continue;
    counts[event.name] = (counts[event.name] ?? 0) + 1;
  }
  const frames = drawnFrameStarts(events, from, to, fromEvent.pid).map((ts) => ts / 1000);
  const intervals = frames.slice(1).map((at, index) => at - frames[index]);
  const draws = drawTimes(events, from, to, fromEvent.pid).map((ts) => ts / 1000);
  const drawIntervals = draws.slice(1).map((at, index) => at - draws[index]);
  const dropped = events.filter((event) => event.name === 'DroppedFrame' && event.ts >= from && event.ts <= to).length;
  return {
    frames: frames.length,
    ...stats(intervals),
    droppedFrameEvents: dropped,
    eventCounts: counts,
    drawIntervals: stats(drawIntervals),
  };
}

/** The times (µs) of the page's `DrawFrame` events (process `pid`) between `from` and `to`, in order. */
function drawTimes(events, from, to, pid) {
  return events
    .filter((event) => event.name === 'DrawFrame' && event.pid === pid && event.ts >= from && event.ts <= to)
    .map((event) => event.ts)
    .sort((a, b) => a - b);
}

/**
 * The `BeginFrame` times (µs) of the frames the page's compositor (process `pid`) drew between `from` and `to`, in
 * order: each `DrawFrame` matched to the `BeginFrame` of its sequence number (`args.frameSeqId`, per layer tree).
 */
function drawnFrameStarts(events, from, to, pid) {
  const seq = (event) => `${event.args?.layerTreeId}:${event.args?.frameSeqId}`;
  const begun = new Map();
  for (const event of events) {
    if (event.name === 'BeginFrame' && event.pid === pid && event.args?.frameSeqId !== undefined) {
      begun.set(seq(event), event.ts);
    }
  }
  const starts = new Set();
  for (const event of events) {
    if (event.name !== 'DrawFrame' || event.pid !== pid || event.ts < from || event.ts > to) continue;
    const start = begun.get(seq(event));
    if (start !== undefined) starts.add(start);
  }
  return [...starts].sort((a, b) => a - b);
}

function stats(samples) {
  if (samples.length === 0) return { p50: NaN, p95: NaN, max: NaN, over100: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return {
    p50: round(at(50)),
    p95: round(at(95)),
    max: round(sorted.at(-1)),
    over16_7: samples.filter((value) => value > 16.7).length,
    // Past one and a half frames of 60 Hz: at least one vsync missed (the timestamps jitter around 16.7 ms).
    over25: samples.filter((value) => value > 25).length,
    over100: samples.filter((value) => value > 100).length,
  };
}

// Seeding over HTTP: what a photos client sends for each file (docs/protocol.md#photos-client-encryption).

async function seedLibrary(account, token, count) {
  const album = await createAlbum(account, token, 'Ten thousand');
  const thumbnails = makeThumbnails(24);
  // Newest first: a few photos a day over the last years, some days busier than others.
  const now = Date.now();
  const dayMs = 86_400_000;
  const addFile = async (index) => {
    const day = Math.floor(index / 9) + (index % 7 === 0 ? 0 : Math.floor(index / 63));
    const video = index % 25 === 7;
    await addPhoto(token, album, {
      original: randomBytes(64),
      thumbnail: thumbnails[index % thumbnails.length],
      title: `IMG_${String(index).padStart(5, '0')}.${video ? 'mp4' : 'jpg'}`,
      creationTime: (now - day * dayMs - (index % 9) * 3_600_000) * 1000,
      fileType: video ? 1 : 0,
    });
  };
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = next++;
      await addFile(index);
      if ((index + 1) % 1000 === 0) log(`  ${index + 1} files`);
    }
  };
  await Promise.all(Array.from({ length: 12 }, lane));
}

/** `count` JPEGs of 360×270 (about 138 KB: gradients under heavy noise, each of its own colours) made by ffmpeg. */
function makeThumbnails(count) {
  const folder = path.join(scratch, 'thumbnails');
  mkdirSync(folder);
  const list = [];
  for (let index = 0; index < count; index++) {
    const file = path.join(folder, `${index}.jpg`);
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `gradients=s=360x270:seed=${index + 1}:nb_colors=3,noise=alls=12:allf=t`,
      '-frames:v',
      '1',
      '-q:v',
      '5',
      file,
    ]);
    list.push(new Uint8Array(readFileSync(file)));
  }
  return list;
}

// Uploads through the page.

async function uploadPart(which) {
  const folder = path.join(scratch, which === 'big' ? 'One big video' : 'Bench mix');
  mkdirSync(folder);
  const made = which === 'big' ? await makeBigVideo(folder, bigMiB) : makeMix(folder, mixCount);
  const totalBytes = made.reduce((sum, file) => sum + file.bytes, 0);
  log(`${made.length} files, ${(totalBytes / 2 ** 20).toFixed(1)} MiB: ${JSON.stringify(countByKind(made))}`);

  const { account } = await createAccount({ app: 'photos' });
  const context = await browser.newContext({ viewport, timezoneId: 'UTC', locale: 'en-US' });
  await context.addInitScript(watchLongTasks);
  // The uploader hands each file's stage times to this array when it exists (upload/uploader.ts).
  if (values.profile) await context.addInitScript(() => (window.__entePhotosUploadProfile = []));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
  const token = await passwordLogin(account, 'photos');
  await signInBrowser(page, 'photos', account, token, '/gallery');
  await page.getByText('No photos yet').waitFor({ timeout: 60_000 });

  // The app's upload: the folder picked through the Upload menu, until the panel says every file ended.
  await page.getByRole('button', { name: 'Upload' }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('menuitem', { name: 'A folder…' }).click();
  const from = await page.evaluate(() => performance.now());
  await (await chooser).setFiles(folder);
  const panel = page.getByRole('region', { name: 'Uploads' });
  await panel.getByRole('heading', { name: 'Uploads finished' }).waitFor({ timeout: 3_600_000 });
  const to = await page.evaluate(() => performance.now());
  const uploaded = await panel.getByText('Uploaded', { exact: true }).count();
  const collections = await serverCollections(token);
  const onServer = (await Promise.all(collections.map((collection) => serverFiles(token, collection.id)))).flat()
    .length;
  const tasks = await page.evaluate(([start, end]) => window.__photosBenchTasks.within(start, end), [from, to]);
  const profile = values.profile
    ? summariseProfile(await page.evaluate(() => window.__entePhotosUploadProfile), from, to)
    : undefined;
  const appSeconds = (to - from) / 1000;
  log(
    `app upload: ${appSeconds.toFixed(1)} s, ${uploaded} said uploaded, ${onServer} on the server; ` +
      `longest task ${tasks.longestTaskMs} ms`,
  );

  // The same bytes PUT raw from the same page to signed upload URLs, two at a time.
  const raw = await rawPut(page, token, folder, made);
  log(`raw PUT: ${raw.seconds.toFixed(1)} s`);
  await context.close();

  const mbps = (seconds) => round(totalBytes / 1e6 / seconds);
  return {
    files: made.length,
    kinds: countByKind(made),
    totalMiB: round(totalBytes / 2 ** 20),
    app: {
      seconds: round(appSeconds),
      MBps: mbps(appSeconds),
      filesPerSecond: round(made.length / appSeconds),
      uploaded,
      onServer,
      ...tasks,
    },
    rawPut: { seconds: round(raw.seconds), MBps: mbps(raw.seconds), concurrency: 2 },
    appOverRaw: round(appSeconds / raw.seconds),
    ...(profile ? { profile } : {}),
    pageErrors: errors,
  };
}

/**
 * The uploader's stage times (one entry a file: its kind, bytes, start and end, and ms per stage, the main thread's
 * calls and the worker's parts of them) summed up: per stage the mean, p50, p95 and max over the files that went
 * through it and its share of all files' time; per kind the mean time of a file; and how busy the lanes were.
 */
function summariseProfile(entries, from, to) {
  const ms = (value) => Math.round(value);
  const fileMs = entries.map((entry) => entry.endedAt - entry.startedAt);
  const allMs = fileMs.reduce((a, b) => a + b, 0);
  const stages = {};
  for (const name of [...new Set(entries.flatMap((entry) => Object.keys(entry.stages)))]) {
    const samples = entries.map((entry) => entry.stages[name]).filter((value) => value !== undefined);
    const sum = samples.reduce((a, b) => a + b, 0);
    const { p50, p95, max } = stats(samples);
    stages[name] = {
      files: samples.length,
      meanMs: ms(sum / samples.length),
      p50Ms: ms(p50),
      p95Ms: ms(p95),
      maxMs: ms(max),
      shareOfFileTime: round(sum / allMs),
    };
  }
  const kinds = {};
  entries.forEach((entry, index) => {
    const kind = (kinds[entry.kind] ??= { files: 0, MiB: 0, ms: 0 });
    kind.files += 1;
    kind.MiB += entry.bytes / 2 ** 20;
    kind.ms += fileMs[index];
  });
  const byKind = Object.fromEntries(
    Object.entries(kinds).map(([kind, { files, MiB, ms: total }]) => [
      kind,
      { files, meanMiB: round(MiB / files), meanFileMs: ms(total / files) },
    ]),
  );
  const starts = entries.map((entry) => entry.startedAt);
  return {
    files: entries.length,
    newWorkers: entries.filter((entry) => entry.newWorker).length,
    firstFileStartedAfterMs: ms(Math.min(...starts) - from),
    lastFileEndedBeforeFinishedMs: ms(to - Math.max(...entries.map((entry) => entry.endedAt))),
    meanFileMs: ms(allMs / entries.length),
    filesAtOnceOnAverage: round(allMs / (to - from)),
    stages,
    byKind,
  };
}

/**
 * The page's long tasks and long animation frames from its start (init script); `within(from, to)` gives the
 * longest of each and how many passed 50 ms between two of the page's times.
 */
function watchLongTasks() {
  const entries = { longtask: [], 'long-animation-frame': [] };
  for (const type of Object.keys(entries)) {
    if (!PerformanceObserver.supportedEntryTypes.includes(type)) continue;
    new PerformanceObserver((list) => entries[type].push(...list.getEntries())).observe({ type, buffered: true });
  }
  window.__photosBenchTasks = {
    within(from, to) {
      const pick = (type) => entries[type].filter((entry) => entry.startTime >= from && entry.startTime <= to);
      const tasks = pick('longtask');
      const frames = pick('long-animation-frame');
      const longest = (list) => Math.round(Math.max(0, ...list.map((entry) => entry.duration)));
      const slowest = frames.reduce((a, b) => (b.duration > (a?.duration ?? 0) ? b : a), undefined);
      return {
        longestTaskMs: longest(tasks),
        longTasks: tasks.length,
        longestAnimationFrameMs: longest(frames),
        longAnimationFrames: frames.length,
        slowestFrameScripts: (slowest?.scripts ?? [])
          .slice(0, 3)
          .map(
            (script) => `${Math.round(script.duration)} ms ${script.invoker} (${script.sourceURL.split('/').pop()})`,
          ),
      };
    },
  };
}

/** Each file PUT as it is to a signed upload URL from the API, two at a time, by fetch in the page. */
async function rawPut(page, token, folder, made) {
  const urlsOf = [];
  for (const file of made) {
    const bytes = readFileSync(path.join(folder, file.name));
    const contentMD5 = createHash('md5').update(bytes).digest('base64');
    const { url } = await api('photos', 'POST', '/files/upload-url', {
      token,
      body: { contentLength: bytes.length, contentMD5 },
    });
    urlsOf.push({ name: file.name, url, contentMD5 });
  }
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.id = 'photos-bench-raw';
    input.style.display = 'none';
    document.body.append(input);
  });
  await page.setInputFiles(
    '#photos-bench-raw',
    made.map((file) => path.join(folder, file.name)),
  );
  const seconds = await page.evaluate(async (targets) => {
    const input = document.getElementById('photos-bench-raw');
    const files = new Map([...input.files].map((file) => [file.name, file]));
    const queue = [...targets];
    const startedAt = performance.now();
    const lane = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const answer = await fetch(next.url, {
          method: 'PUT',
          body: files.get(next.name),
          headers: { 'Content-MD5': next.contentMD5 },
        });
        if (!answer.ok) throw new Error(`PUT ${next.name}: ${answer.status}`);
      }
    };
    await Promise.all([lane(), lane()]);
    return (performance.now() - startedAt) / 1000;
  }, urlsOf);
  return { seconds };
}

/**
 * `count` files in `folder`: about 65 % JPEG, 20 % PNG, 10 % HEIC and 5 % videos (MP4 and WebM), from a few
 * generated bases of camera-like sizes, each copy given bytes of its own: a JPEG comment segment, a PNG text
 * chunk, an ISO-BMFF `free` box after a HEIC's or an MP4's boxes; the WebMs are encoded one by one.
 */
function makeMix(folder, count) {
  const bases = path.join(scratch, 'bases');
  mkdirSync(bases);
  // Noise of strength 2 (JPEG) and 4 (PNG) gives camera-like sizes: about 4.5 MB for a 12 MP JPEG at q 7.
  const picture = (name, size, seed, noise, extra) => {
    const file = path.join(bases, name);
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `gradients=s=${size}:seed=${seed}:nb_colors=4,noise=alls=${noise}:allf=u`,
      '-frames:v',
      '1',
      ...extra,
      file,
    ]);
    return file;
  };
  const jpegs = [
    ['4032x3024', 1],
    ['4032x3024', 2],
    ['3024x4032', 3],
    ['4000x3000', 4],
    ['1920x1080', 5],
    ['1920x1080', 6],
  ].map(([size, seed]) => readFileSync(picture(`j${seed}.jpg`, size, seed, 2, ['-pix_fmt', 'yuvj420p', '-q:v', '7'])));
  const pngs = [
    ['1600x1200', 7],
    ['2048x1536', 8],
  ].map(([size, seed]) => readFileSync(picture(`p${seed}.png`, size, seed, 4, ['-pix_fmt', 'rgb24'])));
  const heics = [9, 10].map((seed) => {
    const png = picture(`h${seed}.png`, '3024x4032', seed, 4, ['-pix_fmt', 'rgb24']);
    const heic = path.join(bases, `h${seed}.heic`);
    run('heif-enc', ['-q', '50', '-o', heic, png]);
    return readFileSync(heic);
  });
  const mp4 = (seed, seconds) => {
    const file = path.join(bases, `v${seed}.mp4`);
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `gradients=s=1280x720:seed=${seed}:speed=0.05:r=30,noise=alls=4:allf=t`,
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-an',
      file,
    ]);
    return readFileSync(file);
  };
  const videos = [mp4(11, 4), mp4(12, 8)];

  const videoCount = Math.max(1, Math.round(count * 0.05));
  const heicCount = Math.max(1, Math.round(count * 0.1));
  const pngCount = Math.max(1, Math.round(count * 0.2));
  const made = [];
  const write = (name, kind, bytes) => {
    writeFileSync(path.join(folder, name), bytes);
    made.push({ name, kind, bytes: bytes.length });
  };
  for (let index = 0; index < count; index++) {
    const tag = `photos-app bench file ${index} ${randomBytes(8).toString('hex')}`;
    const number = String(index).padStart(4, '0');
    if (index < videoCount) {
      if (index % 3 === 2) write(`VID_${number}.webm`, 'webm', webm(index));
      else write(`VID_${number}.mp4`, 'mp4', withFreeBox(videos[index % videos.length], tag));
    } else if (index < videoCount + heicCount) {
      write(`IMG_${number}.heic`, 'heic', withFreeBox(heics[index % heics.length], tag));
    } else if (index < videoCount + heicCount + pngCount) {
      write(`IMG_${number}.png`, 'png', withTextChunk(pngs[index % pngs.length], tag));
    } else {
      write(`IMG_${number}.jpg`, 'jpeg', withComment(jpegs[index % jpegs.length], tag));
    }
  }
  return made;

  function webm(seed) {
    const file = path.join(bases, `w${seed}.webm`);
    ffmpeg([
      '-f',
      'lavfi',
      '-i',
      `gradients=s=640x360:seed=${seed + 100}:speed=0.05:r=24`,
      '-t',
      '3',
      '-c:v',
      'libvpx-vp9',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      '600k',
      '-an',
      file,
    ]);
    return readFileSync(file);
  }
}

/** One MP4 of `mib` MiB: a short real clip and a `free` box of random bytes after it (it plays as the clip). */
async function makeBigVideo(folder, mib) {
  const clip = path.join(scratch, 'clip.mp4');
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'gradients=s=1920x1080:seed=42:speed=0.05:r=30',
    '-t',
    '10',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    '-an',
    clip,
  ]);
  const head = readFileSync(clip);
  const total = mib * 2 ** 20;
  const name = 'VID_big.mp4';
  const out = createWriteStream(path.join(folder, name));
  const write = (bytes) =>
    new Promise((resolve, reject) => out.write(bytes, (error) => (error ? reject(error) : resolve())));
  await write(head);
  const boxSize = total - head.length;
  const boxHeader = Buffer.alloc(8);
  boxHeader.writeUInt32BE(boxSize, 0);
  boxHeader.write('free', 4, 'latin1');
  await write(boxHeader);
  for (let left = boxSize - 8; left > 0;) {
    const chunk = randomBytes(Math.min(left, 4 * 2 ** 20));
    await write(chunk);
    left -= chunk.length;
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  const bytes = statSync(path.join(folder, name)).size;
  if (bytes !== total) throw new Error(`the big video is ${bytes} bytes, not ${total}`);
  return [{ name, kind: 'mp4', bytes }];
}

/** A JPEG with a comment segment (FF FE) right after its start marker. */
function withComment(jpeg, text) {
  const body = Buffer.from(text, 'latin1');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, body, jpeg.subarray(2)]);
}

/** A PNG with a tEXt chunk before its IEND chunk (the last 12 bytes). */
function withTextChunk(png, text) {
  const data = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.from(text, 'latin1')]);
  const type = Buffer.from('tEXt', 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])), 0);
  return Buffer.concat([png.subarray(0, png.length - 12), length, type, data, crc, png.subarray(png.length - 12)]);
}

/** An ISO-BMFF file (HEIC, MP4) with a top-level `free` box after its boxes. */
function withFreeBox(file, text) {
  const body = Buffer.from(text, 'latin1');
  const header = Buffer.alloc(8);
  header.writeUInt32BE(body.length + 8, 0);
  header.write('free', 4, 'latin1');
  return Buffer.concat([file, header, body]);
}

function countByKind(made) {
  const counts = {};
  for (const file of made) counts[file.kind] = (counts[file.kind] ?? 0) + 1;
  return counts;
}

// Small things.

function ffmpeg(args) {
  run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr?.toString() ?? result.error}`);
}

function round(value) {
  return Math.round(value * 10) / 10;
}

function log(line) {
  process.stderr.write(`${line}\n`);
}
