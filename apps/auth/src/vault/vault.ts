// The vault: the signed-in user's codes, kept in step with the server and with the other tabs of this
// browser. This module is the shell around the pure core (core.ts): it runs the core's effects through
// the adapters (the key, the pull, the writes, the cache, the tab signals) and turns what they answer
// into the core's events. Pages read it through `snapshot()`/`subscribe()` (useSyncExternalStore, see
// services/use-vault.ts). Loaded with `import()` once the user is signed in and unlocked: it brings idb,
// zod and the parser with it. See: [Note: Vault sync] and docs/protocol.md#authenticator-data.
//
// [Note: Vault sync]
// - Key: key.ts. The wrapped key is cached; the masterKey is forgotten once the authenticator key is open.
// - Pull: the paged diff from the cursor (@ente/shared/sync/paged-diff.ts, [Note: Paged diff]). Each page is decrypted
//   in one worker call (only the entities newer than what we hold) and saved with its cursor in one
//   transaction ([Note: Entity cache]). Pulls never overlap: one asked for during another runs after it.
// - Writes: POST (new) or PUT with ifUpdatedAt; the PUT answers nothing, so a pull follows it to learn
//   the new updatedAt. A 409 (or an entity deleted meanwhile) pulls, records a VaultConflict (mine =
//   what the user wrote, theirs = the server's version now, or 'deleted') and throws
//   VaultConflictError. 'theirs' drops mine; 'mine' writes it with ifUpdatedAt = theirs' updatedAt (a
//   newer change meanwhile is a new conflict), or posts it as a new code when theirs was deleted.
// - Offline (navigator.onLine false, or a request without an answer): readOnlyReason 'offline', the
//   codes stay; the 'online' event syncs again.
// - Other tabs and the clock: @ente/shared/sync/tab-signals.ts. After each change the other tabs are told to pull;
//   every VAULT_SYNC_INTERVAL_MS while the tab is visible, and when it becomes visible, it pulls too (the
//   server answers an unchanged diff from memory).
import type { BlobB64 } from '@ente/crypto/api.ts';
import { cryptoWorker } from '@ente/crypto/client.ts';
import { httpStatusOf } from '@ente/shared/failure.ts';
import { log } from '@ente/shared/log.ts';
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';
import { savedUserID } from '@ente/shared/storage/user.ts';
import { CoreShell } from '@ente/shared/sync/core-shell.ts';
import { pullPages } from '@ente/shared/sync/paged-diff.ts';
import { isOnline } from '@ente/shared/sync/tab-signals.ts';

import { codeURI } from '../services/code-uri.ts';
import { deleteEntity, DIFF_PAGE_SIZE, getEntityDiff, postEntity, putEntity } from '../services/remote.ts';
import type { Code, CodeData, VaultItem } from '../services/types.ts';
import {
  authenticatorCache,
  readAuthenticatorCache,
  snapshotFormat,
  type AuthenticatorCache,
  type CachedEntity,
  type CachedKey,
  type EntityCacheChange,
  type SnapshotContent,
} from './cache.ts';
import {
  initialState,
  pageChanges,
  snapshotOf,
  step,
  type PageEntry,
  type VaultEffect,
  type VaultEvent,
  type VaultSnapshot,
  type VaultState,
} from './core.ts';
import { toVaultError, VaultConflictError, VaultError, type VaultConflict } from './errors.ts';
import { readIdentity, type Identity } from './identity.ts';
import { codeOf, itemOf, updatedAtOf } from './items.ts';
import { fetchOrCreateKey } from './key.ts';
import { markVaultStage } from './marks.ts';

export type { VaultSnapshot } from './core.ts';
export { toVaultError, VaultConflictError, VaultError, type VaultConflict, type VaultErrorKey } from './errors.ts';
export { itemOf } from './items.ts';
export { nextCursor as nextSinceTime } from '@ente/shared/sync/paged-diff.ts';

export interface Vault {
  /** The current state: the same object until something changes. */
  snapshot(): VaultSnapshot;
  /** For useSyncExternalStore; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Pulls the diff (pages), applies and caches it. Never rejects: a failure is `syncErrorKey` of the snapshot. */
  sync(): Promise<void>;
  /** Encrypts, POSTs, caches, tells the other tabs. */
  add(data: CodeData): Promise<Code>;
  /**
   * Adds many codes (an import): encrypted a batch per worker call, POSTed a few at a time, each batch
   * applied, cached and announced once. Stops at `signal` or at the first failure, rejecting (a
   * `VaultError`, or the abort's DOMException) after keeping what was saved; each code is one entity,
   * so nothing is ever half-written.
   */
  addMany(datas: readonly CodeData[], options?: AddManyOptions): Promise<Code[]>;
  /** Write `data` over `code` with ifUpdatedAt = code.updatedAt; on 409: pull, record a conflict, throw VaultConflictError. */
  update(code: Code, data: CodeData): Promise<Code>;
  /** DELETE with ifUpdatedAt (permanent delete from the trash); VaultError 'vault.deleteConflict' when it changed since. */
  deleteForever(id: string, ifUpdatedAt: number): Promise<void>;
  resolveConflict(id: string, choice: 'mine' | 'theirs'): Promise<void>;
  /** Forget keys and items (lock, logout); the vault is unusable afterwards. */
  close(): void;
}

/** The BroadcastChannel on which the vaults of one browser say "changed" (never any data). */
export const VAULT_CHANNEL = 'ente-auth-vault';

/** How often a visible tab pulls. */
export const VAULT_SYNC_INTERVAL_MS = 60_000;

export interface AddManyOptions {
  signal?: AbortSignal;
  /** After each batch: how many codes are saved so far, of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Codes per worker call and cache write (default 50). */
  batchSize?: number;
}

/** How many POSTs of an import are in flight at once. */
const ADD_CONCURRENCY = 4;

export interface OpenVaultOptions {
  /** How often a visible tab pulls (tests shorten or lengthen it). */
  syncIntervalMs?: number;
  /** The cache as read before the vault's code arrived (services/vault-start.ts); read here otherwise. */
  early?: Promise<EarlyCache | undefined>;
  /** The user id (kv) and this tab's masterKey, read before the vault's code arrived; read here otherwise. */
  identity?: Promise<Identity>;
}

/** The cached codes of `userID`, read early. */
export interface EarlyCache {
  userID: number;
  cache: AuthenticatorCache;
}

/**
 * Opens the vault of the signed-in, unlocked user (master key from session storage). Resolves once the
 * cache is read (status 'ready' when it held the codes, else 'loading' until the first pull); the pull
 * runs on. Throws VaultError 'vault.notSignedIn' or 'vault.locked' when there is no user or no key.
 */
export async function openVault(options: OpenVaultOptions = {}): Promise<Vault> {
  const [userID, masterKey] = await (options.identity ?? readIdentity());
  markVaultStage('identity');
  if (userID === undefined || !Number.isFinite(userID)) throw new VaultError('vault.notSignedIn');
  if (masterKey === undefined) throw new VaultError('vault.locked');
  const vault = new VaultSession(userID, masterKey, options.syncIntervalMs ?? VAULT_SYNC_INTERVAL_MS);
  await vault.start(await options.early);
  return vault;
}

const openVaults = new Set<VaultSession>();
// Logout forgets every open vault of this tab.
registerInMemoryReset('auth-vault', () => {
  for (const vault of [...openVaults]) vault.close();
});

class VaultSession
  extends CoreShell<VaultState, VaultEvent, VaultEffect, VaultSnapshot, EntityCacheChange>
  implements Vault
{
  private authKey: string | undefined;
  private keyPending: Promise<string> | undefined;
  private masterKey: string | undefined;

  constructor(
    private readonly userID: number,
    masterKey: string,
    private readonly syncIntervalMs: number,
  ) {
    // The core's state, snapshot, listeners, pull runs and tab signals: @ente/shared/sync/core-shell.ts.
    super({ initial: initialState, step, snapshotOf });
    this.masterKey = masterKey;
  }

  /** Reads the cache (unless read early), shows it, and starts pulling and listening. */
  async start(early?: EarlyCache): Promise<void> {
    openVaults.add(this);
    await this.loadCache(early?.userID === this.userID ? early.cache : undefined);
    if (this.state.closed) return;
    await this.goLive(VAULT_CHANNEL, this.syncIntervalMs);
  }

  sync(): Promise<void> {
    return this.pullAndWait();
  }

  async add(data: CodeData): Promise<Code> {
    const [code] = await this.addMany([data]);
    if (!code) throw new VaultError('vault.unknown');
    return code;
  }

  async addMany(datas: readonly CodeData[], options: AddManyOptions = {}): Promise<Code[]> {
    const { signal, onProgress, batchSize = 50 } = options;
    const authKey = await this.writable();
    const added: Code[] = [];
    for (let start = 0; start < datas.length; start += batchSize) {
      signal?.throwIfAborted();
      const batch = datas.slice(start, start + batchSize);
      const uris = batch.map((data) => codeURI(data));
      const blobs = await (
        await cryptoWorker()
      ).encryptBlobTexts(
        uris.map((uri) => JSON.stringify(uri)),
        authKey,
      );
      this.ensureOpen();
      // By the batch's index: the answers come in any order.
      const savedAt: ({ code: Code; blob: BlobB64 } | undefined)[] = [];
      let failed: unknown;
      let next = 0;
      const post = async () => {
        while (failed === undefined && next < batch.length && !signal?.aborted) {
          const index = next++;
          const blob = blobs[index];
          const data = batch[index];
          if (!blob || !data) return;
          try {
            const entity = await postEntity(blob, this.requestOptions);
            savedAt[index] = { code: codeOf(uris[index] ?? '', entity.id, entity.updatedAt, data), blob };
          } catch (e) {
            failed ??= e;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(ADD_CONCURRENCY, batch.length) }, post));
      this.ensureOpen();
      const saved = savedAt.filter((entry) => entry !== undefined);
      const codes = saved.map(({ code }) => code);
      const cached = saved.map(({ code, blob }) => ({ id: code.id, ...blob, updatedAt: code.updatedAt }));
      await this.dispatch({ type: 'codesWritten', codes, cached });
      added.push(...codes);
      onProgress?.(start + saved.length, datas.length);
      if (failed !== undefined) throw this.failure(failed);
    }
    signal?.throwIfAborted();
    return added;
  }

  async update(code: Code, data: CodeData): Promise<Code> {
    const authKey = await this.writable();
    return this.write(code.id, code.updatedAt, data, authKey);
  }

  async deleteForever(id: string, ifUpdatedAt: number): Promise<void> {
    await this.writable();
    try {
      await deleteEntity(id, ifUpdatedAt, this.requestOptions);
    } catch (e) {
      if (httpStatusOf(e) === 409) {
        // Changed (restored, edited) elsewhere since the user chose to delete it: show that instead.
        await this.sync();
        throw new VaultError('vault.deleteConflict', { cause: e });
      }
      throw this.failure(e);
    }
    this.ensureOpen();
    await this.dispatch({ type: 'deleted', id });
  }

  async resolveConflict(id: string, choice: 'mine' | 'theirs'): Promise<void> {
    const conflict = this.state.conflicts.find((candidate) => candidate.id === id);
    if (!conflict) return;
    if (choice === 'mine') {
      const authKey = await this.writable();
      const { theirs } = conflict;
      if (theirs === 'deleted') {
        // The entity is gone for good (a deleted entity cannot be written again): mine lives on as a new code.
        await this.add(conflict.mine);
      } else {
        // A newer change since theirs replaces this conflict with a new one (and throws).
        await this.write(id, updatedAtOf(theirs), conflict.mine, authKey);
      }
    }
    // (By id: a pull meanwhile may have replaced the conflict's object with a fresher `theirs`.)
    await this.dispatch({ type: 'conflictResolved', id });
  }

  close(): void {
    void this.dispatch({ type: 'closed' });
  }

  // --- Running the core

  /** The vault's own effect: write the cache's snapshot (the shell runs the others). */
  protected performOther(effect: VaultEffect): void {
    if (effect.type === 'snapshot') void this.saveSnapshot();
  }

  protected forget(): void {
    openVaults.delete(this);
    this.authKey = undefined;
    this.masterKey = undefined;
  }

  // --- Loading and pulling

  private async loadCache(early: AuthenticatorCache | undefined): Promise<void> {
    let cache: AuthenticatorCache;
    try {
      cache = early ?? (await readAuthenticatorCache(this.userID));
    } catch (e) {
      log.warn('Could not read the cached codes', e);
      return;
    }
    if (!cache.key || this.state.closed) return;
    const crypto = await cryptoWorker();
    try {
      if (this.masterKey === undefined) return;
      this.useKey(await crypto.decryptBox(cache.key.encryptedKey, cache.key.header, this.masterKey));
      markVaultStage('key');
    } catch (e) {
      // Not this masterKey's (an account recreated under the same id): drop it and pull everything afresh.
      log.warn('The cached authenticator key does not open', e);
      await authenticatorCache.clear().catch((error: unknown) => log.warn('Could not clear the cached codes', error));
      return;
    }
    if (cache.snapshot) {
      if (await this.loadSnapshot(cache.snapshot)) return;
      // A snapshot that does not open: every entity record instead.
      cache = await authenticatorCache.read(this.userID).catch((e: unknown) => {
        log.warn('Could not read the cached codes', e);
        return { entities: [] };
      });
    }
    if (!cache.sync || this.isClosed()) return;
    const entries = await this.decrypt(cache.entities);
    if (this.isClosed()) return;
    const { sinceTime, timeOffsetMs } = cache.sync;
    await this.dispatch({
      type: 'cacheRead',
      entries: entries.map(({ cached, item }) => ({ id: cached.id, updatedAt: cached.updatedAt, item })),
      cursor: sinceTime,
      timeOffsetMs,
      fromSnapshot: false,
    });
  }

  /** Shows the snapshot's items (one decryption); false when it does not open or is not one. */
  private async loadSnapshot(snapshot: { encryptedData: string; header: string }): Promise<boolean> {
    const authKey = this.authKey;
    if (!authKey) return false;
    let content: SnapshotContent;
    try {
      const { encryptedData, header } = snapshot;
      const text = await (await cryptoWorker()).decryptBlobText({ encryptedData, header }, authKey);
      markVaultStage('decrypted');
      content = JSON.parse(text) as SnapshotContent;
      if (!Array.isArray(content.items) || typeof content.cursor !== 'number') throw new Error('not a snapshot');
    } catch (e) {
      log.warn('The cached snapshot of the codes does not open', e);
      return false;
    }
    if (this.isClosed()) return true;
    await this.dispatch({
      type: 'cacheRead',
      entries: content.items.map((item) => ({ id: idOf(item), updatedAt: updatedAtOf(item), item })),
      cursor: content.cursor,
      timeOffsetMs: typeof content.timeOffsetMs === 'number' ? content.timeOffsetMs : 0,
      fromSnapshot: true,
    });
    markVaultStage('parsed');
    return true;
  }

  /** Writes the items and cursor of now as the cache's snapshot, encrypted in one worker call. */
  private async saveSnapshot(): Promise<void> {
    const authKey = this.authKey;
    if (!authKey) return;
    const { cursor, timeOffsetMs } = this.state;
    const content: SnapshotContent = { items: this.emitted.snapshot.items, cursor, timeOffsetMs };
    if (this.state.entries !== this.emitted.state.entries) {
      content.items = Array.from(this.state.entries.values(), (entry) => entry.item);
    }
    try {
      const blob = await (await cryptoWorker()).encryptBlobText(JSON.stringify(content), authKey);
      if (this.state.closed || !(await this.stillSignedIn())) return;
      await authenticatorCache.saveSnapshot(this.userID, { ...blob, format: snapshotFormat(), sinceTime: cursor });
    } catch (e) {
      log.warn('Could not cache the snapshot of the codes', e);
    }
  }

  /** One pull (every page since the cursor), then the core's verdict. */
  protected async pullOnce(): Promise<void> {
    try {
      await this.ensureKey();
      await pullPages({
        cursor: this.state.cursor,
        limit: DIFF_PAGE_SIZE,
        fetchPage: (sinceTime, limit) => getEntityDiff(sinceTime, limit, this.requestOptions),
        applyPage: async ({ rows, from, cursor, timestamp, timeOffsetMs }) => {
          this.ensureOpen();
          const { changed, removed } = pageChanges(this.state, rows);
          const decrypted = await this.decrypt(changed);
          this.ensureOpen();
          await this.dispatch({
            type: 'pageApplied',
            changed: decrypted,
            removed,
            sync: { sinceTime: cursor, timestamp, timeOffsetMs },
            from,
          });
        },
      });
      await this.dispatch({ type: 'pullSucceeded' });
    } catch (e) {
      if (this.state.closed) return;
      const error = toVaultError(e);
      const offline = error.errorKey === 'vault.offline';
      if (!offline) log.error('Could not sync the codes', e);
      await this.dispatch({ type: 'pullFailed', errorKey: error.errorKey, offline });
    }
  }

  /** Decrypts (one worker call) and parses entities. */
  private async decrypt(entities: readonly CachedEntity[]): Promise<PageEntry[]> {
    const authKey = this.authKey;
    if (!authKey) throw new VaultError('vault.keyMissing');
    if (entities.length === 0) return [];
    const blobs: BlobB64[] = entities.map(({ encryptedData, header }) => ({ encryptedData, header }));
    const texts = await (await cryptoWorker()).decryptBlobTexts(blobs, authKey);
    this.ensureOpen();
    return entities.map((cached, index) => ({
      cached,
      item: itemOf(cached.id, cached.updatedAt, texts[index] ?? null),
    }));
  }

  // --- The key

  /** The authenticator key, read (or made) once even when a pull and a write ask for it together. */
  private ensureKey(): Promise<string> {
    if (this.authKey) return Promise.resolve(this.authKey);
    if (!this.keyPending) {
      const pending = this.fetchKey();
      this.keyPending = pending;
      const forget = () => {
        if (this.keyPending === pending) this.keyPending = undefined;
      };
      pending.then(forget, forget);
    }
    return this.keyPending;
  }

  private async fetchKey(): Promise<string> {
    const masterKey = this.masterKey;
    if (masterKey === undefined) throw new VaultError('vault.locked');
    const { authKey, wrapped } = await fetchOrCreateKey(await cryptoWorker(), masterKey, this.requestOptions);
    this.ensureOpen();
    this.useKey(authKey);
    await this.saveKeyToCache(wrapped);
    return authKey;
  }

  private useKey(authKey: string) {
    this.authKey = authKey;
    // Only the authenticator key is needed from now on.
    this.masterKey = undefined;
  }

  // --- Writing

  /** The authenticator key, when a write is possible now; otherwise the VaultError that says why not. */
  private async writable(): Promise<string> {
    this.ensureOpen();
    if (!isOnline()) {
      await this.dispatch({ type: 'wentOffline' });
      throw new VaultError('vault.offline');
    }
    try {
      return await this.ensureKey();
    } catch (e) {
      throw this.failure(e);
    }
  }

  /** PUT `data` over entity `id` if it is still at `ifUpdatedAt`. See: [Note: Vault sync] */
  private async write(id: string, ifUpdatedAt: number, data: CodeData, authKey: string): Promise<Code> {
    const uri = codeURI(data);
    const blob = await (await cryptoWorker()).encryptBlobText(JSON.stringify(uri), authKey);
    this.ensureOpen();
    try {
      await putEntity(id, blob, ifUpdatedAt, this.requestOptions);
    } catch (e) {
      const status = httpStatusOf(e);
      // 409: changed since; 404 / 400: deleted (or never there) meanwhile.
      if (status === 409 || status === 404 || status === 400) {
        await this.sync();
        this.ensureOpen();
        const current = this.state.entries.get(id);
        if (status === 409 || !current) {
          const conflict: VaultConflict = { id, mine: data, theirs: current?.item ?? 'deleted' };
          await this.dispatch({ type: 'conflictFound', conflict });
          throw new VaultConflictError(conflict);
        }
      }
      throw this.failure(e);
    }
    this.ensureOpen();
    this.announce();
    // The PUT answers nothing: the pull brings the new updatedAt (or a change made right after ours).
    await this.sync();
    this.ensureOpen();
    const entry = this.state.entries.get(id);
    if (entry && entry.updatedAt > ifUpdatedAt && entry.item.kind === 'code') return entry.item.code;
    // The pull failed: show what was written; the next pull brings its updatedAt.
    const code = codeOf(uri, id, ifUpdatedAt, data);
    await this.dispatch({ type: 'codesWritten', codes: [code], cached: [] });
    return code;
  }

  /** The VaultError of a failed request; a request without an answer also makes the vault read-only. */
  private failure(e: unknown): VaultError {
    if (this.state.closed) return new VaultError('vault.locked', { cause: e });
    const error = toVaultError(e);
    if (error.errorKey === 'vault.offline') void this.dispatch({ type: 'wentOffline' });
    else if (!(e instanceof VaultError)) log.error('A change to the codes failed', e);
    return error;
  }

  private ensureOpen() {
    if (this.state.closed) throw new VaultError('vault.locked');
  }

  // A method rather than a field read, because TypeScript keeps a field's narrowing across an `await`.
  private isClosed(): boolean {
    return this.state.closed;
  }

  // --- The cache

  protected async save(change: EntityCacheChange): Promise<void> {
    const empty = !change.put?.length && !change.remove?.length && !change.sync;
    if (empty || !(await this.stillSignedIn())) return;
    try {
      await authenticatorCache.saveChange(this.userID, change);
    } catch (e) {
      log.warn('Could not cache the codes', e);
    }
  }

  private async saveKeyToCache(key: CachedKey): Promise<void> {
    if (!(await this.stillSignedIn())) return;
    try {
      await authenticatorCache.saveKey(this.userID, key);
    } catch (e) {
      log.warn('Could not cache the authenticator key', e);
    }
  }

  /** False (and the vault closes) once the user signed out, here or in another tab: nothing is cached then. */
  private async stillSignedIn(): Promise<boolean> {
    let userID: number | undefined;
    try {
      userID = await savedUserID();
    } catch {
      userID = undefined;
    }
    if (userID === this.userID && !this.state.closed) return true;
    this.close();
    return false;
  }
}

function idOf(item: VaultItem): string {
  return item.kind === 'code' ? item.code.id : item.item.id;
}
