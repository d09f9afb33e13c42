// What the browser tests measure inside a page: everything the origin keeps in the browser (after
// logout only the device preferences may remain), the longest gap between two animation frames (the UI
// thread must never freeze while keys are derived), and the Argon2id runs the crypto worker reported.
import { expect, type Page } from '@playwright/test';

/** Local-storage keys logout keeps (docs/protocol.md#local-storage, docs/decisions.md#browser-storage-and-logout). */
export const localKeysKeptOnLogout = ['logs', 'theme', 'locale', 'authDisplay', 'authIdleLock'];
/** kv keys logout keeps (docs/protocol.md#indexeddb). */
export const kvKeysKeptOnLogout = ['apiOrigin'];

export interface BrowserStorage {
  local: string[];
  session: string[];
  /** Each IndexedDB database with the keys of each of its object stores. */
  databases: Record<string, Record<string, string[]>>;
  caches: string[];
}

/** Every key this page's origin keeps: local and session storage, IndexedDB, Cache Storage. */
export async function browserStorage(page: Page): Promise<BrowserStorage> {
  return page.evaluate(async () => {
    const request = <T>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
      });
    const databases: Record<string, Record<string, string[]>> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await request(indexedDB.open(name));
      const stores: Record<string, string[]> = {};
      for (const store of Array.from(db.objectStoreNames)) {
        const keys = await request(db.transaction(store, 'readonly').objectStore(store).getAllKeys());
        stores[store] = keys.map(String);
      }
      db.close();
      databases[name] = stores;
    }
    return {
      local: Object.keys(localStorage),
      session: Object.keys(sessionStorage),
      databases,
      caches: typeof caches === 'undefined' ? [] : await caches.keys(),
    };
  });
}

/**
 * Logout left nothing but the device preferences: local storage holds only `logs`, `theme`,
 * `locale` and the auth app's display and idle-lock options, session storage nothing, IndexedDB no database but `kv` with only `apiOrigin` (or none),
 * Cache Storage nothing.
 */
export async function expectOnlyPreferencesLeft(page: Page): Promise<void> {
  const storage = await browserStorage(page);
  const { kv, ...otherDatabases } = storage.databases;
  expect(
    {
      local: storage.local.filter((key) => !localKeysKeptOnLogout.includes(key)),
      session: storage.session,
      kv: Object.values(kv ?? {})
        .flat()
        .filter((key) => !kvKeysKeptOnLogout.includes(key)),
      otherDatabases,
      caches: storage.caches,
    },
    'what the browser keeps after logout',
  ).toEqual({ local: [], session: [], kv: [], otherDatabases: {}, caches: [] });
}

/** One long gap between two frames: how long, when it ended (ms on the page's clock), on which route. */
export interface FrameGap {
  gapMs: number;
  endedAt: number;
  path: string;
}

interface FrameProbeState {
  running: boolean;
  last: number;
  frames: number;
  /** The longest gaps, longest first (at most five). */
  worst: FrameGap[];
  /** Main-thread tasks over 50 ms (Long Tasks API), to tell a busy main thread from a starved one. */
  longTasks: { startTime: number; duration: number }[];
  observer?: PerformanceObserver;
}

type ProbeWindow = Window & { __frameProbe?: FrameProbeState };

/**
 * Starts recording the gaps between animation frames in the page's current document (a full page load
 * ends it: `stopFrameProbe` then fails). Sign-in moves between routes without reloading.
 */
export async function startFrameProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state: FrameProbeState = { running: true, last: performance.now(), frames: 0, worst: [], longTasks: [] };
    (window as ProbeWindow).__frameProbe = state;
    try {
      state.observer = new PerformanceObserver((list) => {
        for (const { startTime, duration } of list.getEntries()) state.longTasks.push({ startTime, duration });
      });
      state.observer.observe({ type: 'longtask' });
    } catch {
      // no Long Tasks API: the gaps alone are measured
    }
    const tick = (now: number) => {
      if (!state.running) return;
      const gapMs = now - state.last;
      if (state.worst.length < 5 || gapMs > (state.worst.at(-1)?.gapMs ?? 0)) {
        state.worst = [...state.worst, { gapMs, endedAt: now, path: location.pathname }]
          .sort((a, b) => b.gapMs - a.gapMs)
          .slice(0, 5);
      }
      state.last = now;
      state.frames += 1;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

export interface FrameProbeResult {
  /** The longest gap between two frames (ms), the time since the last frame included. */
  maxGapMs: number;
  frames: number;
  worst: FrameGap[];
  longTasks: { startTime: number; duration: number }[];
}

/** Stops the probe and says what it saw. */
export async function stopFrameProbe(page: Page): Promise<FrameProbeResult> {
  const result = await page.evaluate(() => {
    const state = (window as ProbeWindow).__frameProbe;
    if (!state) return undefined;
    state.running = false;
    state.observer?.disconnect();
    // The time since the last frame counts too: a freeze at the very end is still a freeze.
    const sinceLast = performance.now() - state.last;
    return {
      maxGapMs: Math.max(sinceLast, ...state.worst.map((gap) => gap.gapMs)),
      frames: state.frames,
      worst: state.worst,
      longTasks: state.longTasks,
    };
  });
  if (!result) throw new Error('The frame probe is gone: the page was reloaded while it ran');
  return result;
}

/** The longest frame gap the UI may show while signing up or in (derivation runs in the worker). */
export const maxFrameGapMs = 200;

export interface Argon2RunEntry {
  /** ms on the page's timeline */
  startTime: number;
  duration: number;
  /** What the crypto client records with each run (packages/crypto/src/boundary.ts). */
  detail: { method: string; opsLimit: number; memLimit: number; ok: boolean };
}

/** The Argon2id runs recorded on the main thread (`ente:argon2id` measures), oldest first. */
export async function argon2Runs(page: Page): Promise<Argon2RunEntry[]> {
  return page.evaluate(() =>
    performance.getEntriesByName('ente:argon2id', 'measure').map((entry) => ({
      startTime: entry.startTime,
      duration: entry.duration,
      detail: (entry as PerformanceMeasure).detail as Argon2RunEntry['detail'],
    })),
  );
}

/**
 * A heap snapshot of the page's JavaScript (the DevTools protocol's HeapProfiler, after a garbage
 * collection): every string the page's heap holds is in it as JSON text. The renderer's whole isolate
 * is snapshotted, so a document of this tab kept in the back/forward cache is in it too.
 */
export async function heapSnapshot(page: Page): Promise<Buffer> {
  const session = await page.context().newCDPSession(page);
  const chunks: string[] = [];
  session.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk));
  try {
    await session.send('HeapProfiler.enable');
    await session.send('HeapProfiler.collectGarbage');
    await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    await session.detach();
  }
  return Buffer.from(chunks.join(''), 'utf8');
}
