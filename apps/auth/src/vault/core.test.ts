/**
 * @jest-environment node
 */
// The vault's rules as the pure core holds them: events in, state and effects out. No timers, fakes,
// network or DOM.
import { parseCodeURI } from '../services/code-uri.ts';
import type { Code, VaultItem } from '../services/types.ts';
import {
  initialState,
  OFFSET_NOISE_MS,
  pageChanges,
  snapshotOf,
  step,
  type VaultEffect,
  type VaultEvent,
  type VaultState,
} from './core.ts';
import type { VaultConflict } from './errors.ts';

const code = (id: string, updatedAt: number, issuer = `Issuer ${id}`): Code => {
  const uri = `otpauth://totp/${issuer}?secret=JBSWY3DPEHPK3PXP`;
  return { ...parseCodeURI(uri), id, updatedAt, uri };
};
const item = (id: string, updatedAt: number): VaultItem => ({ kind: 'code', code: code(id, updatedAt) });
const cached = (id: string, updatedAt: number) => ({
  id,
  encryptedData: `data-${id}`,
  header: `header-${id}`,
  updatedAt,
});
const sync = (sinceTime: number, timeOffsetMs = 0) => ({ sinceTime, timestamp: sinceTime + 1, timeOffsetMs });

/** Runs events from `state` and returns the last state and every effect, in order. */
function run(state: VaultState, ...events: VaultEvent[]): { state: VaultState; effects: VaultEffect[] } {
  const effects: VaultEffect[] = [];
  for (const event of events) {
    const next = step(state, event);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}
const types = (effects: VaultEffect[]) => effects.map((effect) => effect.type);
const page = (changed: [string, number][], removed: string[], cursor: number, timeOffsetMs = 0): VaultEvent => ({
  type: 'pageApplied',
  changed: changed.map(([id, updatedAt]) => ({ cached: cached(id, updatedAt), item: item(id, updatedAt) })),
  removed,
  sync: sync(cursor, timeOffsetMs),
  from: 20,
});
const ready = run(initialState, {
  type: 'cacheRead',
  entries: [
    { id: 'a', updatedAt: 10, item: item('a', 10) },
    { id: 'b', updatedAt: 20, item: item('b', 20) },
  ],
  cursor: 20,
  timeOffsetMs: 1000,
  fromSnapshot: true,
}).state;

describe('pulls', () => {
  test('a request starts a pull; one during it asks for exactly one more after it', () => {
    const first = run(initialState, { type: 'pullRequested' });
    expect(types(first.effects)).toEqual(['pull']);
    const during = run(first.state, { type: 'pullRequested' }, { type: 'pullRequested' });
    expect(during.effects).toEqual([]);
    const ended = run(during.state, { type: 'pullStarted' }, { type: 'pullSucceeded' });
    expect(types(ended.effects)).toEqual(['emit', 'emit', 'pull']);
    expect(ended.state.pulling).toBe(true);
    const last = run(ended.state, { type: 'pullStarted' }, { type: 'pullSucceeded' });
    expect(types(last.effects)).toEqual(['emit', 'emit']);
    expect(last.state.pulling).toBe(false);
  });

  test('the cache read makes the vault ready with its codes, cursor and offset', () => {
    expect(ready.status).toBe('ready');
    expect(ready.cursor).toBe(20);
    expect(ready.timeOffsetMs).toBe(1000);
    expect(snapshotOf(ready).items).toEqual([item('a', 10), item('b', 20)]);
  });

  test('a page applies, saves with its cursor in one change, and emits only when items changed', () => {
    const applied = run(ready, page([['c', 30]], ['a'], 30, 1000));
    expect(applied.effects).toEqual([
      { type: 'save', change: { put: [cached('c', 30)], remove: ['a'], sync: sync(30, 1000), syncFrom: 20 } },
      { type: 'emit' },
    ]);
    expect([...applied.state.entries.keys()].sort()).toEqual(['b', 'c']);
    expect(applied.state.cursor).toBe(30);

    const empty = run(applied.state, page([], [], 30, 1000));
    expect(types(empty.effects)).toEqual(['save']);
    expect(empty.state.entries).toBe(applied.state.entries);
  });

  test('the cursor never moves back', () => {
    expect(run(ready, page([], [], 5)).state.cursor).toBe(20);
  });

  test('a change of the clock offset under the noise threshold is kept out of the state and the cache', () => {
    const small = run(ready, page([], [], 20, 1000 + OFFSET_NOISE_MS - 1));
    expect(small.state.timeOffsetMs).toBe(1000);
    expect(small.effects[0]).toMatchObject({ type: 'save', change: { sync: { timeOffsetMs: 1000 } } });
    const large = run(ready, page([], [], 20, 1000 + OFFSET_NOISE_MS));
    expect(large.state.timeOffsetMs).toBe(1000 + OFFSET_NOISE_MS);
  });

  test('only entities newer than those held are decrypted; deletions and rows without data are removals', () => {
    const rows = [
      { id: 'a', updatedAt: 10, encryptedData: 'x', header: 'h' },
      { id: 'b', updatedAt: 21, encryptedData: 'y', header: 'h' },
      { id: 'c', updatedAt: 5, encryptedData: 'z', header: 'h' },
      { id: 'd', updatedAt: 22, encryptedData: null, header: null },
      { id: 'e', updatedAt: 23, encryptedData: 'w', header: 'h', isDeleted: true },
    ];
    expect(pageChanges(ready, rows)).toEqual({
      changed: [
        { id: 'b', updatedAt: 21, encryptedData: 'y', header: 'h' },
        { id: 'c', updatedAt: 5, encryptedData: 'z', header: 'h' },
      ],
      removed: ['d', 'e'],
    });
  });

  test('a failed pull: loading becomes failed; offline makes it read-only, an answer from the server does not', () => {
    const offline = run(
      initialState,
      { type: 'pullRequested' },
      { type: 'pullStarted' },
      {
        type: 'pullFailed',
        errorKey: 'vault.offline',
        offline: true,
      },
    );
    expect(offline.state).toMatchObject({
      status: 'failed',
      syncing: false,
      pulling: false,
      readOnlyReason: 'offline',
      syncErrorKey: 'vault.offline',
    });
    const server = run(
      offline.state,
      { type: 'pullRequested' },
      { type: 'pullStarted' },
      {
        type: 'pullFailed',
        errorKey: 'vault.serverError',
        offline: false,
      },
    );
    expect(server.state.readOnlyReason).toBeUndefined();
    expect(server.state.syncErrorKey).toBe('vault.serverError');
    const back = run(server.state, { type: 'pullRequested' }, { type: 'pullStarted' }, { type: 'pullSucceeded' });
    expect(back.state).toMatchObject({ status: 'ready', syncing: false });
    expect(back.state.syncErrorKey).toBeUndefined();
  });

  test('a pull skipped offline ends the run without a request, and emits only what changed', () => {
    const skipped = run(ready, { type: 'pullRequested' }, { type: 'pullSkippedOffline' });
    expect(types(skipped.effects)).toEqual(['pull', 'emit']);
    expect(skipped.state).toMatchObject({ status: 'ready', readOnlyReason: 'offline', pulling: false, syncing: false });
    const again = run(skipped.state, { type: 'pullRequested' }, { type: 'pullSkippedOffline' });
    expect(types(again.effects)).toEqual(['pull']);
    expect(run(skipped.state, { type: 'wentOffline' }).effects).toEqual([]);
  });
});

describe('the snapshot', () => {
  test('a cache read from entity records is written as a snapshot once the first pull run ends', () => {
    const fromRecords = run(initialState, {
      type: 'cacheRead',
      entries: [{ id: 'a', updatedAt: 10, item: item('a', 10) }],
      cursor: 10,
      timeOffsetMs: 0,
      fromSnapshot: false,
    });
    const first = run(fromRecords.state, { type: 'pullRequested' }, { type: 'pullStarted' }, { type: 'pullRequested' });
    const rerun = run(first.state, { type: 'pullSucceeded' });
    expect(types(rerun.effects)).toEqual(['emit', 'pull']);
    const end = run(rerun.state, { type: 'pullStarted' }, { type: 'pullSucceeded' });
    expect(types(end.effects)).toEqual(['emit', 'emit', 'snapshot']);
    const unchanged = run(end.state, { type: 'pullRequested' }, { type: 'pullStarted' }, page([], [], 10), {
      type: 'pullSucceeded',
    });
    expect(types(unchanged.effects)).not.toContain('snapshot');
  });

  test('a pull that changed items ends with a snapshot, a failed one too (its pages stay applied)', () => {
    const failed = run(ready, { type: 'pullRequested' }, { type: 'pullStarted' }, page([['c', 30]], [], 30), {
      type: 'pullFailed',
      errorKey: 'vault.serverError',
      offline: false,
    });
    expect(types(failed.effects)).toEqual(['pull', 'emit', 'save', 'emit', 'emit', 'snapshot']);
  });

  test('a write outside a pull writes the snapshot at once; during a pull, at its end', () => {
    const outside = run(ready, { type: 'deleted', id: 'a' });
    expect(types(outside.effects)).toEqual(['save', 'announce', 'emit', 'snapshot']);
    const during = run(ready, { type: 'pullRequested' }, { type: 'deleted', id: 'a' });
    expect(types(during.effects)).toEqual(['pull', 'save', 'announce', 'emit']);
    const end = run(during.state, { type: 'pullStarted' }, { type: 'pullSucceeded' });
    expect(types(end.effects)).toEqual(['emit', 'emit', 'snapshot']);
  });
});

describe('writes and conflicts', () => {
  test('written codes are shown, cached, and announced; an unconfirmed write is only shown', () => {
    const written = run(ready, { type: 'codesWritten', codes: [code('c', 40)], cached: [cached('c', 40)] });
    expect(written.effects).toEqual([
      { type: 'save', change: { put: [cached('c', 40)] } },
      { type: 'announce' },
      { type: 'emit' },
      { type: 'snapshot' },
    ]);
    expect(written.state.entries.get('c')).toEqual({ updatedAt: 40, item: item('c', 40) });
    const shownOnly = run(ready, { type: 'codesWritten', codes: [code('a', 10, 'Renamed')], cached: [] });
    expect(types(shownOnly.effects)).toEqual(['emit', 'snapshot']);
    expect(run(ready, { type: 'codesWritten', codes: [], cached: [] }).effects).toEqual([]);
  });

  test('a deletion removes the code and its conflict, caches and announces it', () => {
    const conflict: VaultConflict = { id: 'a', mine: code('a', 10), theirs: item('a', 11) };
    const deleted = run(ready, { type: 'conflictFound', conflict }, { type: 'deleted', id: 'a' });
    expect(deleted.state.entries.has('a')).toBe(false);
    expect(deleted.state.conflicts).toEqual([]);
    expect(deleted.effects.slice(1)).toEqual([
      { type: 'save', change: { remove: ['a'] } },
      { type: 'announce' },
      { type: 'emit' },
      { type: 'snapshot' },
    ]);
  });

  test('one conflict per code; a pull that touches it shows the server version of now, or deleted', () => {
    const first: VaultConflict = { id: 'a', mine: code('a', 10, 'Mine'), theirs: item('a', 11) };
    const second: VaultConflict = { id: 'a', mine: code('a', 10, 'Mine again'), theirs: item('a', 12) };
    const other: VaultConflict = { id: 'b', mine: code('b', 20, 'Mine'), theirs: item('b', 21) };
    const found = run(
      ready,
      { type: 'conflictFound', conflict: first },
      { type: 'conflictFound', conflict: other },
      {
        type: 'conflictFound',
        conflict: second,
      },
    );
    expect(found.state.conflicts).toEqual([other, second]);
    const pulled = run(found.state, page([['a', 13]], ['b'], 40));
    expect(pulled.state.conflicts).toEqual([
      { ...other, theirs: 'deleted' },
      { ...second, theirs: item('a', 13) },
    ]);
    const resolved = run(pulled.state, { type: 'conflictResolved', id: 'a' });
    expect(resolved.state.conflicts.map((conflict) => conflict.id)).toEqual(['b']);
  });
});

describe('snapshots and closing', () => {
  test('a snapshot keeps the previous arrays while items and conflicts did not change', () => {
    const first = snapshotOf(ready);
    const syncing = step(ready, { type: 'pullStarted' }).state;
    const second = snapshotOf(syncing, { state: ready, snapshot: first });
    expect(second).not.toBe(first);
    expect(second.syncing).toBe(true);
    expect(second.items).toBe(first.items);
    expect(second.conflicts).toBe(first.conflicts);
    const changed = run(syncing, page([['c', 30]], [], 30)).state;
    expect(snapshotOf(changed, { state: syncing, snapshot: second }).items).not.toBe(second.items);
  });

  test('closing forgets the codes and conflicts, says locked, stops, and ignores every later event', () => {
    const conflict: VaultConflict = { id: 'a', mine: code('a', 10), theirs: item('a', 11) };
    const closed = run(ready, { type: 'conflictFound', conflict }, { type: 'pullRequested' }, { type: 'closed' });
    expect(types(closed.effects).slice(-2)).toEqual(['stop', 'emit']);
    expect(snapshotOf(closed.state)).toEqual({
      status: 'failed',
      items: [],
      syncing: false,
      conflicts: [],
      readOnlyReason: 'locked',
      syncErrorKey: 'vault.locked',
      timeOffsetMs: 1000,
    });
    const after = run(closed.state, { type: 'pullRequested' }, page([['c', 30]], [], 30), { type: 'closed' });
    expect(after.state).toBe(closed.state);
    expect(after.effects).toEqual([]);
  });
});
