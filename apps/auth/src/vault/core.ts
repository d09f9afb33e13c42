// The vault's pure core: `step(state, event)` answers the next state and the effects the shell
// (vault.ts) must run: emit a snapshot, pull, save a change to the cache, tell the other tabs, stop.
// No I/O, no clock, no promises: every rule about what the codes, the conflicts, the cursor and the
// status become is here, and tested without timers, fakes or a DOM (core.test.ts).
// See: [Note: Vault sync] in vault.ts.
import type { CachedEntity, CachedSyncState, EntityCacheChange } from '@ente/shared/sync/entity-cache.ts';

import type { Code, VaultItem } from '../services/types.ts';
import type { VaultConflict, VaultErrorKey } from './errors.ts';

/** A change of the offset smaller than this is measurement noise, not worth a new snapshot. */
export const OFFSET_NOISE_MS = 250;

export interface Entry {
  updatedAt: number;
  item: VaultItem;
}

export interface VaultState {
  /** Replaced (never changed in place) when the items change, so that a snapshot can keep its items. */
  entries: ReadonlyMap<string, Entry>;
  conflicts: readonly VaultConflict[];
  /** The `sinceTime` of the next diff. */
  cursor: number;
  timeOffsetMs: number;
  status: 'loading' | 'ready' | 'failed';
  /** A pull is under way (shown). */
  syncing: boolean;
  readOnlyReason?: 'offline' | 'locked';
  syncErrorKey?: string;
  /** A pull run is under way (from the request to its end, reruns included). */
  pulling: boolean;
  /** Something asked for a pull while one ran: one more follows it. */
  pullAgain: boolean;
  /** The items changed since the cache's snapshot was written (or it has none). */
  snapshotStale: boolean;
  closed: boolean;
}

export type VaultEvent =
  /** The cache held the codes (decrypted and parsed by the shell), from its snapshot or its entity records. */
  | {
      type: 'cacheRead';
      entries: readonly (Entry & { id: string })[];
      cursor: number;
      timeOffsetMs: number;
      fromSnapshot: boolean;
    }
  /** Something wants a pull (open, a write, another tab, the network back, visibility, the timer). */
  | { type: 'pullRequested' }
  /** The shell found the browser offline when the pull was due: no request is made. */
  | { type: 'pullSkippedOffline' }
  /** The shell sends the first request of a pull. */
  | { type: 'pullStarted' }
  /** A page of the diff, its changed entities decrypted and parsed, `cached` as the server sent them. */
  | {
      type: 'pageApplied';
      changed: readonly PageEntry[];
      removed: readonly string[];
      sync: CachedSyncState;
      /** The cursor the page was pulled from. */
      from: number;
    }
  | { type: 'pullSucceeded' }
  /** `offline`: the request got no answer. */
  | { type: 'pullFailed'; errorKey: VaultErrorKey; offline: boolean }
  /** The browser went offline, or a write got no answer. */
  | { type: 'wentOffline' }
  /** Codes written to the server (new, or `update`'s answer when its pull failed); `cached` when new. */
  | { type: 'codesWritten'; codes: readonly Code[]; cached: readonly CachedEntity[] }
  | { type: 'deleted'; id: string }
  | { type: 'conflictFound'; conflict: VaultConflict }
  | { type: 'conflictResolved'; id: string }
  | { type: 'closed' };

/** A row of the server's diff (an entity, or the tombstone of one). */
export interface DiffRow {
  id: string;
  updatedAt: number;
  isDeleted?: boolean;
  encryptedData: string | null;
  header: string | null;
}

/** A changed entity of a page: what the server sent, and its item. */
export interface PageEntry {
  cached: CachedEntity;
  item: VaultItem;
}

export type VaultEffect =
  | { type: 'emit' }
  | { type: 'pull' }
  | { type: 'save'; change: EntityCacheChange }
  | { type: 'announce' }
  /** Write the cache's snapshot of the items and cursor as they are now. */
  | { type: 'snapshot' }
  /** Forget everything and stop listening and requesting (close). */
  | { type: 'stop' };

export interface Step {
  state: VaultState;
  effects: VaultEffect[];
}

export const initialState: VaultState = {
  entries: new Map(),
  conflicts: [],
  cursor: 0,
  timeOffsetMs: 0,
  status: 'loading',
  syncing: false,
  pulling: false,
  pullAgain: false,
  snapshotStale: false,
  closed: false,
};

const emit: VaultEffect = { type: 'emit' };

export function step(state: VaultState, event: VaultEvent): Step {
  if (state.closed) return { state, effects: [] };
  switch (event.type) {
    case 'cacheRead': {
      const entries = new Map(state.entries);
      for (const { id, updatedAt, item } of event.entries) entries.set(id, { updatedAt, item });
      const next = {
        ...state,
        entries,
        cursor: event.cursor,
        timeOffsetMs: event.timeOffsetMs,
        status: 'ready' as const,
        snapshotStale: !event.fromSnapshot,
      };
      return { state: next, effects: [] };
    }
    case 'pullRequested':
      if (state.pulling) return { state: { ...state, pullAgain: true }, effects: [] };
      return { state: { ...state, pulling: true, pullAgain: false }, effects: [{ type: 'pull' }] };
    case 'pullSkippedOffline': {
      const next = wentOffline(state);
      return endPull(next, next === state ? [] : [emit]);
    }
    case 'pullStarted':
      return { state: { ...state, syncing: true }, effects: [emit] };
    case 'pageApplied':
      return pageApplied(state, event);
    case 'pullSucceeded': {
      const next: VaultState = { ...state, status: 'ready', syncing: false };
      delete next.readOnlyReason;
      delete next.syncErrorKey;
      return endPull(next, [emit]);
    }
    case 'pullFailed': {
      const next: VaultState = {
        ...state,
        syncing: false,
        syncErrorKey: event.errorKey,
        status: state.status === 'loading' ? 'failed' : state.status,
      };
      // The server answered: online, whatever else went wrong.
      if (event.offline) next.readOnlyReason = 'offline';
      else delete next.readOnlyReason;
      return endPull(next, [emit]);
    }
    case 'wentOffline': {
      const next = wentOffline(state);
      return { state: next, effects: next === state ? [] : [emit] };
    }
    case 'codesWritten': {
      if (event.codes.length === 0) return { state, effects: [] };
      const entries = new Map(state.entries);
      for (const code of event.codes) entries.set(code.id, { updatedAt: code.updatedAt, item: { kind: 'code', code } });
      const effects: VaultEffect[] = [];
      if (event.cached.length > 0) effects.push({ type: 'save', change: { put: event.cached } }, { type: 'announce' });
      effects.push(emit);
      return settled({ ...state, entries, snapshotStale: true }, effects);
    }
    case 'deleted': {
      let { entries } = state;
      if (entries.has(event.id)) {
        const copy = new Map(entries);
        copy.delete(event.id);
        entries = copy;
      }
      const conflicts = withoutConflict(state.conflicts, event.id);
      return settled({ ...state, entries, conflicts, snapshotStale: true }, [
        { type: 'save', change: { remove: [event.id] } },
        { type: 'announce' },
        emit,
      ]);
    }
    case 'conflictFound': {
      const conflicts = [...withoutConflict(state.conflicts, event.conflict.id), event.conflict];
      return { state: { ...state, conflicts }, effects: [emit] };
    }
    case 'conflictResolved':
      return { state: { ...state, conflicts: withoutConflict(state.conflicts, event.id) }, effects: [emit] };
    case 'closed':
      return {
        state: {
          ...initialState,
          cursor: state.cursor,
          timeOffsetMs: state.timeOffsetMs,
          status: 'failed',
          readOnlyReason: 'locked',
          syncErrorKey: 'vault.locked',
          closed: true,
        },
        effects: [{ type: 'stop' }, emit],
      };
  }
}

export interface VaultSnapshot {
  /** 'loading' until the cache (or the first pull when there is no cache) is read. */
  status: 'loading' | 'ready' | 'failed';
  /** Every entity, trashed codes included, in no particular order. */
  items: VaultItem[];
  syncing: boolean;
  /** Why edits are impossible now (the UI disables editing and shows the reason); undefined = editable. */
  readOnlyReason?: 'offline' | 'locked';
  /** A `codes` i18n key describing the last sync failure, if the last sync failed. */
  syncErrorKey?: string;
  conflicts: VaultConflict[];
  /** server − local, in ms (docs/protocol.md#authenticator-data: the correct sign). Add it to Date.now() to generate codes. */
  timeOffsetMs: number;
}

/**
 * What pages read: a new object on every emit, which keeps the previous one's `items` and `conflicts`
 * arrays while they did not change (the list re-renders only what changed).
 */
export function snapshotOf(
  state: VaultState,
  previous?: { state: VaultState; snapshot: VaultSnapshot },
): VaultSnapshot {
  const items =
    previous && previous.state.entries === state.entries
      ? previous.snapshot.items
      : Array.from(state.entries.values(), (entry) => entry.item);
  const conflicts =
    previous && previous.state.conflicts === state.conflicts ? previous.snapshot.conflicts : [...state.conflicts];
  const snapshot: VaultSnapshot = {
    status: state.status,
    items,
    syncing: state.syncing,
    conflicts,
    timeOffsetMs: state.timeOffsetMs,
  };
  if (state.readOnlyReason) snapshot.readOnlyReason = state.readOnlyReason;
  if (state.syncErrorKey) snapshot.syncErrorKey = state.syncErrorKey;
  return snapshot;
}

/**
 * What of a diff page must be decrypted (newer than what the vault holds) and what is gone; entities
 * without data are deletions.
 */
export function pageChanges(
  state: VaultState,
  rows: readonly DiffRow[],
): { changed: CachedEntity[]; removed: string[] } {
  const changed: CachedEntity[] = [];
  const removed: string[] = [];
  for (const row of rows) {
    if (row.isDeleted || row.encryptedData === null || row.header === null) {
      removed.push(row.id);
      continue;
    }
    const known = state.entries.get(row.id);
    if (known && known.updatedAt >= row.updatedAt) continue;
    changed.push({ id: row.id, encryptedData: row.encryptedData, header: row.header, updatedAt: row.updatedAt });
  }
  return { changed, removed };
}

function pageApplied(state: VaultState, event: Extract<VaultEvent, { type: 'pageApplied' }>): Step {
  const { changed, removed, sync } = event;
  const touched = changed.length > 0 || removed.length > 0;
  let { entries, conflicts } = state;
  if (touched) {
    const copy = new Map(entries);
    for (const { cached, item } of changed) copy.set(cached.id, { updatedAt: cached.updatedAt, item });
    for (const id of removed) copy.delete(id);
    entries = copy;
    if (conflicts.length > 0) {
      // A conflict shows the server's version as it is now.
      const ids = new Set([...changed.map(({ cached }) => cached.id), ...removed]);
      conflicts = conflicts.map((conflict) =>
        ids.has(conflict.id) ? { ...conflict, theirs: copy.get(conflict.id)?.item ?? 'deleted' } : conflict,
      );
    }
  }
  const timeOffsetMs =
    Math.abs(sync.timeOffsetMs - state.timeOffsetMs) >= OFFSET_NOISE_MS ? sync.timeOffsetMs : state.timeOffsetMs;
  const next: VaultState = {
    ...state,
    entries,
    conflicts,
    cursor: Math.max(state.cursor, sync.sinceTime),
    timeOffsetMs,
    snapshotStale: state.snapshotStale || touched,
  };
  const change: EntityCacheChange = {
    put: changed.map(({ cached }) => cached),
    remove: removed,
    sync: { ...sync, timeOffsetMs },
    syncFrom: event.from,
  };
  const effects: VaultEffect[] = [{ type: 'save', change }];
  if (touched) effects.push(emit);
  return { state: next, effects };
}

/** The end of one pull: another follows when one was asked for meanwhile; else the snapshot is written. */
function endPull(state: VaultState, effects: VaultEffect[] = []): Step {
  if (state.pullAgain) return { state: { ...state, pullAgain: false }, effects: [...effects, { type: 'pull' }] };
  return settled({ ...state, pulling: false }, effects);
}

/** Writes the snapshot after a change, unless a pull is under way (its end writes it, once). */
function settled(state: VaultState, effects: VaultEffect[]): Step {
  if (state.pulling || !state.snapshotStale) return { state, effects };
  return { state: { ...state, snapshotStale: false }, effects: [...effects, { type: 'snapshot' }] };
}

function wentOffline(state: VaultState): VaultState {
  const status = state.status === 'loading' ? 'failed' : state.status;
  if (state.readOnlyReason === 'offline' && state.syncErrorKey === 'vault.offline' && state.status === status)
    return state;
  return { ...state, readOnlyReason: 'offline', syncErrorKey: 'vault.offline', status };
}

function withoutConflict(conflicts: readonly VaultConflict[], id: string): readonly VaultConflict[] {
  return conflicts.some((conflict) => conflict.id === id)
    ? conflicts.filter((conflict) => conflict.id !== id)
    : conflicts;
}
