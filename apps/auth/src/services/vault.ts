// The vault: the signed-in user's codes, kept in step with the server and with the other tabs of this
// browser. It opens the authenticator key with the masterKey of this tab, shows the codes cached in
// IndexedDB at once, pulls the diff since the cache's cursor, and writes every change back as an
// encrypted entity with compare-and-set (`ifUpdatedAt`), so that no edit is lost. Pages read it through
// `snapshot()`/`subscribe()` (useSyncExternalStore, see use-vault.ts). Loaded with `import()` once the
// user is signed in and unlocked: it brings idb, zod and the parser with it.
// See: [Note: Vault sync] and docs/protocol.md#authenticator-data.
//
// [Note: Vault sync]
// - Key: `GET /authenticator/key`; on 404 a key is made in the crypto worker, wrapped in a Box under the
//   masterKey (header = the nonce) and posted; a 409 (another client was quicker) reads it again. The
//   wrapped key is cached; the masterKey is forgotten once the authenticator key is open.
// - Pull: diff pages of DIFF_PAGE_SIZE from the cursor, until an empty page. The next cursor is the
//   largest updatedAt of the page, except after a full page that ends inside a run of equal updatedAt:
//   then it is one less, so that rows sharing that time across the page boundary are fetched again
//   rather than skipped (the strict `>` quirk). Each page is decrypted in one worker call (only the
//   entities newer than what we hold) and saved with its cursor in one transaction.
// - Time: every diff answer carries the server's time; timeOffsetMs = server − local at the middle of
//   the request (docs/protocol.md#authenticator-data, the correct sign).
// - Writes: POST (new) or PUT with ifUpdatedAt; the PUT answers nothing, so a pull follows it to learn
//   the new updatedAt. A 409 (or an entity deleted meanwhile) pulls, records a VaultConflict (mine =
//   what the user wrote, theirs = the server's version now, or 'deleted') and throws
//   VaultConflictError. 'theirs' drops mine; 'mine' writes it with ifUpdatedAt = theirs' updatedAt (a
//   newer change meanwhile is a new conflict), or posts it as a new code when theirs was deleted.
// - Offline (navigator.onLine false, or a request without an answer): readOnlyReason 'offline', the
//   codes stay; the 'online' event syncs again.
// - Other tabs: after each change a BroadcastChannel message "changed" (no data) makes the other tabs
//   pull. Every VAULT_SYNC_INTERVAL_MS while the tab is visible, and when it becomes visible, it pulls
//   too (the server answers an unchanged diff from memory).
import { masterKeyOfThisTab } from '@ente/accounts/services/storage.ts';
import type { BlobB64 } from '@ente/crypto/api.ts';
import { cryptoWorker } from '@ente/crypto/client.ts';
import { DecryptionError } from '@ente/crypto/errors.ts';
import { ApiError, NetworkError, ResponseShapeError, ServerError } from '@ente/shared/http.ts';
import { log } from '@ente/shared/log.ts';
import {
  clearAuthenticatorCache,
  saveAuthenticatorChange,
  saveAuthenticatorKey,
  savedAuthenticatorCache,
  type AuthenticatorCache,
  type AuthenticatorCacheChange,
  type CachedAuthenticatorKey,
  type CachedEntity,
  type CachedSyncState,
} from '@ente/shared/storage/authenticator-db.ts';
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';
import { savedUserID, TokenMissingError } from '@ente/shared/storage/user.ts';

import { codeURI, legacyURI, parseCodeURI } from './code-uri.ts';
import {
  deleteEntity,
  DIFF_PAGE_SIZE,
  getAuthenticatorKey,
  getEntityDiff,
  httpStatusOf,
  postAuthenticatorKey,
  postEntity,
  putEntity,
  type Entity,
} from './remote.ts';
import type { BrokenItem, Code, CodeData, VaultItem } from './types.ts';

export interface VaultConflict {
  id: string;
  /** What the user tried to write. */
  mine: CodeData;
  /** The server's newer version (after the pull), or 'deleted'. */
  theirs: VaultItem | 'deleted';
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

/** The `codes` i18n keys of the vault's failures (section `vault`). */
export type VaultErrorKey =
  | 'vault.offline'
  | 'vault.serverError'
  | 'vault.requestFailed'
  | 'vault.quotaReached'
  | 'vault.tooManyChanges'
  | 'vault.sessionExpired'
  | 'vault.notSignedIn'
  | 'vault.locked'
  | 'vault.keyMissing'
  | 'vault.conflict'
  | 'vault.deleteConflict'
  | 'vault.decryptionFailed'
  | 'vault.notACode'
  | 'vault.unknown';

/** A failure of the vault, with the `codes` i18n key that explains it. */
export class VaultError extends Error {
  constructor(
    readonly errorKey: VaultErrorKey,
    options?: { cause?: unknown },
  ) {
    super(`vault: ${errorKey}`, options);
    this.name = 'VaultError';
  }
}

/** A write that met a newer version on the server; the conflict is also in the snapshot until resolved. */
export class VaultConflictError extends VaultError {
  constructor(readonly conflict: VaultConflict) {
    super('vault.conflict');
    this.name = 'VaultConflictError';
  }
}

/** The BroadcastChannel on which the vaults of one browser say "changed" (never any data). */
export const VAULT_CHANNEL = 'ente-auth-vault';
const CHANGED_MESSAGE = 'changed';

/** How often a visible tab pulls. */
export const VAULT_SYNC_INTERVAL_MS = 60_000;

/** A change of the offset smaller than this is measurement noise, not worth a new snapshot. */
const OFFSET_NOISE_MS = 250;

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
  const [userID, masterKey] = await Promise.all([savedUserID(), masterKeyOfThisTab()]);
  if (userID === undefined || !Number.isFinite(userID)) throw new VaultError('vault.notSignedIn');
  if (masterKey === undefined) throw new VaultError('vault.locked');
  const vault = new VaultSession(userID, masterKey, options.syncIntervalMs ?? VAULT_SYNC_INTERVAL_MS);
  await vault.start(await options.early);
  return vault;
}

interface Entry {
  updatedAt: number;
  item: VaultItem;
}

const openVaults = new Set<VaultSession>();
// Logout forgets every open vault of this tab.
registerInMemoryReset('auth-vault', () => {
  for (const vault of [...openVaults]) vault.close();
});

class VaultSession implements Vault {
  private authKey: string | undefined;
  private keyPending: Promise<string> | undefined;
  private masterKey: string | undefined;
  private readonly entries = new Map<string, Entry>();
  private conflicts: VaultConflict[] = [];
  private sinceTime = 0;
  private timeOffsetMs = 0;
  private status: VaultSnapshot['status'] = 'loading';
  private syncing = false;
  private readOnlyReason: VaultSnapshot['readOnlyReason'];
  private syncErrorKey: string | undefined;
  private closed = false;

  private current: VaultSnapshot = { status: 'loading', items: [], syncing: false, conflicts: [], timeOffsetMs: 0 };
  private itemsChanged = false;
  private readonly listeners = new Set<() => void>();

  private running: Promise<void> | undefined;
  private runAgain = false;

  private channel: BroadcastChannel | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly cleanups: (() => void)[] = [];
  /** Cancels the requests in flight when the vault closes. */
  private readonly aborter = new AbortController();
  private readonly requestOptions = { signal: this.aborter.signal };

  constructor(
    private readonly userID: number,
    masterKey: string,
    private readonly syncIntervalMs: number,
  ) {
    this.masterKey = masterKey;
  }

  /** Reads the cache (unless read early), shows it, and starts pulling and listening. */
  async start(early?: EarlyCache): Promise<void> {
    openVaults.add(this);
    await this.loadCache(early?.userID === this.userID ? early.cache : undefined);
    if (this.closed) return;
    if (!isOnline()) this.readOnlyReason = 'offline';
    this.emit();
    this.listen();
    void this.sync();
  }

  snapshot(): VaultSnapshot {
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    const entry = () => listener();
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  sync(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      // A pull is under way but may have passed the change that asks for this one: pull once more after it.
      this.runAgain = true;
      return this.running;
    }
    const run = (async () => {
      try {
        do {
          this.runAgain = false;
          await this.syncOnce();
        } while (this.wantsAnotherRun());
      } finally {
        this.running = undefined;
      }
    })();
    this.running = run;
    return run;
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
      if (saved.length) {
        for (const { code } of saved) {
          this.entries.set(code.id, { updatedAt: code.updatedAt, item: { kind: 'code', code } });
        }
        this.itemsChanged = true;
        await this.saveToCache({
          put: saved.map(({ code, blob }) => ({ id: code.id, ...blob, updatedAt: code.updatedAt })),
        });
        this.announce();
        this.emit();
        added.push(...saved.map(({ code }) => code));
      }
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
    if (this.entries.delete(id)) this.itemsChanged = true;
    this.conflicts = this.conflicts.filter((conflict) => conflict.id !== id);
    await this.saveToCache({ remove: [id] });
    this.announce();
    this.emit();
  }

  async resolveConflict(id: string, choice: 'mine' | 'theirs'): Promise<void> {
    const conflict = this.conflicts.find((candidate) => candidate.id === id);
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
    this.conflicts = this.conflicts.filter((candidate) => candidate.id !== id);
    this.emit();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    openVaults.delete(this);
    this.authKey = undefined;
    this.masterKey = undefined;
    this.entries.clear();
    this.conflicts = [];
    this.itemsChanged = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.channel?.close();
    this.channel = undefined;
    this.aborter.abort();
    this.syncing = false;
    this.status = 'failed';
    this.readOnlyReason = 'locked';
    this.syncErrorKey = 'vault.locked';
    this.emit();
    this.listeners.clear();
  }

  // --- Loading and pulling

  private async loadCache(early: AuthenticatorCache | undefined): Promise<void> {
    let cache: AuthenticatorCache;
    try {
      cache = early ?? (await savedAuthenticatorCache(this.userID));
    } catch (e) {
      log.warn('Could not read the cached codes', e);
      return;
    }
    if (!cache.key || this.closed) return;
    const crypto = await cryptoWorker();
    try {
      if (this.masterKey === undefined) return;
      this.useKey(await crypto.decryptBox(cache.key.encryptedKey, cache.key.header, this.masterKey));
    } catch (e) {
      // Not this masterKey's (an account recreated under the same id): drop it and pull everything afresh.
      log.warn('The cached authenticator key does not open', e);
      await clearAuthenticatorCache().catch((error: unknown) => log.warn('Could not clear the cached codes', error));
      return;
    }
    if (!cache.sync || this.isClosed()) return;
    await this.applyEntities(cache.entities, []);
    this.sinceTime = cache.sync.sinceTime;
    this.timeOffsetMs = cache.sync.timeOffsetMs;
    this.status = 'ready';
  }

  private async syncOnce(): Promise<void> {
    if (!isOnline()) {
      this.wentOffline();
      return;
    }
    this.syncing = true;
    this.emit();
    try {
      await this.pull();
      this.status = 'ready';
      this.readOnlyReason = undefined;
      this.syncErrorKey = undefined;
    } catch (e) {
      if (this.closed) return;
      const error = toVaultError(e);
      if (error.errorKey === 'vault.offline') {
        this.readOnlyReason = 'offline';
      } else {
        // The server answered: online, whatever else went wrong.
        this.readOnlyReason = undefined;
        log.error('Could not sync the codes', e);
      }
      this.syncErrorKey = error.errorKey;
      if (this.status === 'loading') this.status = 'failed';
    } finally {
      if (!this.closed) {
        this.syncing = false;
        this.emit();
      }
    }
  }

  /** Pulls every page since the cursor. Throws on failure (the pages already applied stay). */
  private async pull(): Promise<void> {
    await this.ensureKey();
    let sinceTime = this.sinceTime;
    for (;;) {
      const sent = Date.now();
      const page = await getEntityDiff(sinceTime, DIFF_PAGE_SIZE, this.requestOptions);
      const received = Date.now();
      this.ensureOpen();
      const next = nextSinceTime(sinceTime, page.diff, DIFF_PAGE_SIZE);
      const offset = Math.round(page.timestamp / 1000 - (sent + received) / 2);
      await this.applyPage(page.diff, { sinceTime: next, timestamp: page.timestamp, timeOffsetMs: offset });
      sinceTime = next;
      if (page.diff.length === 0) return;
    }
  }

  private async applyPage(diff: readonly Entity[], sync: CachedSyncState): Promise<void> {
    const removed: string[] = [];
    const changed: CachedEntity[] = [];
    for (const entity of diff) {
      if (entity.isDeleted || entity.encryptedData === null || entity.header === null) {
        removed.push(entity.id);
        continue;
      }
      const known = this.entries.get(entity.id);
      if (known && known.updatedAt >= entity.updatedAt) continue;
      changed.push({
        id: entity.id,
        encryptedData: entity.encryptedData,
        header: entity.header,
        updatedAt: entity.updatedAt,
      });
    }
    await this.applyEntities(changed, removed);
    this.ensureOpen();
    this.sinceTime = Math.max(this.sinceTime, sync.sinceTime);
    if (Math.abs(sync.timeOffsetMs - this.timeOffsetMs) >= OFFSET_NOISE_MS) this.timeOffsetMs = sync.timeOffsetMs;
    await this.saveToCache({ put: changed, remove: removed, sync: { ...sync, timeOffsetMs: this.timeOffsetMs } });
    if (changed.length > 0 || removed.length > 0) this.emit();
  }

  /** Decrypts (one worker call) and parses `changed`, drops `removed`, and refreshes the conflicts they touch. */
  private async applyEntities(changed: readonly CachedEntity[], removed: readonly string[]): Promise<void> {
    const authKey = this.authKey;
    if (!authKey) throw new VaultError('vault.keyMissing');
    let texts: (string | null)[] = [];
    if (changed.length > 0) {
      const blobs: BlobB64[] = changed.map(({ encryptedData, header }) => ({ encryptedData, header }));
      texts = await (await cryptoWorker()).decryptBlobTexts(blobs, authKey);
    }
    this.ensureOpen();
    changed.forEach((entity, index) => {
      const item = itemOf(entity.id, entity.updatedAt, texts[index] ?? null);
      this.entries.set(entity.id, { updatedAt: entity.updatedAt, item });
    });
    for (const id of removed) this.entries.delete(id);
    if (changed.length > 0 || removed.length > 0) this.itemsChanged = true;
    if (this.conflicts.length > 0) {
      const touched = new Set([...changed.map((entity) => entity.id), ...removed]);
      this.conflicts = this.conflicts.map((conflict) =>
        touched.has(conflict.id) ? { ...conflict, theirs: this.entries.get(conflict.id)?.item ?? 'deleted' } : conflict,
      );
    }
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
    const crypto = await cryptoWorker();
    let wrapped = await getAuthenticatorKey(this.requestOptions);
    if (!wrapped) {
      const authKey = await crypto.generateKey();
      const box = await crypto.encryptBox(authKey, masterKey);
      const key: CachedAuthenticatorKey = { encryptedKey: box.encryptedData, header: box.nonce };
      try {
        await postAuthenticatorKey(key, this.requestOptions);
        this.ensureOpen();
        this.useKey(authKey);
        await this.saveKeyToCache(key);
        return authKey;
      } catch (e) {
        // Another client made the key meanwhile: use theirs.
        if (httpStatusOf(e) !== 409) throw e;
        wrapped = await getAuthenticatorKey(this.requestOptions);
        if (!wrapped) throw new VaultError('vault.keyMissing', { cause: e });
      }
    }
    let authKey: string;
    try {
      authKey = await crypto.decryptBox(wrapped.encryptedKey, wrapped.header, masterKey);
    } catch (e) {
      if (e instanceof DecryptionError) throw new VaultError('vault.keyMissing', { cause: e });
      throw e;
    }
    this.ensureOpen();
    this.useKey(authKey);
    await this.saveKeyToCache({ encryptedKey: wrapped.encryptedKey, header: wrapped.header });
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
      this.wentOffline();
      throw new VaultError('vault.offline');
    }
    try {
      return await this.ensureKey();
    } catch (e) {
      throw this.failure(e);
    }
  }

  private async encrypt(data: CodeData, authKey: string): Promise<{ uri: string; blob: BlobB64 }> {
    const uri = codeURI(data);
    const blob = await (await cryptoWorker()).encryptBlobText(JSON.stringify(uri), authKey);
    this.ensureOpen();
    return { uri, blob };
  }

  /** PUT `data` over entity `id` if it is still at `ifUpdatedAt`. See: [Note: Vault sync] */
  private async write(id: string, ifUpdatedAt: number, data: CodeData, authKey: string): Promise<Code> {
    const { uri, blob } = await this.encrypt(data, authKey);
    try {
      await putEntity(id, blob, ifUpdatedAt, this.requestOptions);
    } catch (e) {
      const status = httpStatusOf(e);
      // 409: changed since; 404 / 400: deleted (or never there) meanwhile.
      if (status === 409 || status === 404 || status === 400) {
        await this.sync();
        this.ensureOpen();
        const current = this.entries.get(id);
        if (status === 409 || !current) {
          const conflict: VaultConflict = { id, mine: data, theirs: current?.item ?? 'deleted' };
          this.conflicts = [...this.conflicts.filter((candidate) => candidate.id !== id), conflict];
          this.emit();
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
    const entry = this.entries.get(id);
    if (entry && entry.updatedAt > ifUpdatedAt && entry.item.kind === 'code') return entry.item.code;
    // The pull failed: show what was written; the next pull brings its updatedAt.
    const code = codeOf(uri, id, ifUpdatedAt, data);
    this.entries.set(id, { updatedAt: ifUpdatedAt, item: { kind: 'code', code } });
    this.itemsChanged = true;
    this.emit();
    return code;
  }

  /** The VaultError of a failed request; a request without an answer also makes the vault read-only. */
  private failure(e: unknown): VaultError {
    if (this.closed) return new VaultError('vault.locked', { cause: e });
    const error = toVaultError(e);
    if (error.errorKey === 'vault.offline') this.wentOffline();
    else if (!(e instanceof VaultError)) log.error('A change to the codes failed', e);
    return error;
  }

  private wentOffline() {
    if (this.closed) return;
    const status = this.status === 'loading' ? 'failed' : this.status;
    if (this.readOnlyReason === 'offline' && this.syncErrorKey === 'vault.offline' && this.status === status) return;
    this.readOnlyReason = 'offline';
    this.syncErrorKey = 'vault.offline';
    this.status = status;
    this.emit();
  }

  private ensureOpen() {
    if (this.closed) throw new VaultError('vault.locked');
  }

  // Methods rather than field reads, because TypeScript keeps a field's narrowing across an `await`.
  private isClosed(): boolean {
    return this.closed;
  }

  private wantsAnotherRun(): boolean {
    return this.runAgain && !this.closed;
  }

  // --- The cache

  private async saveToCache(change: AuthenticatorCacheChange): Promise<void> {
    const empty = !change.put?.length && !change.remove?.length && !change.sync;
    if (empty || !(await this.stillSignedIn())) return;
    try {
      await saveAuthenticatorChange(this.userID, change);
    } catch (e) {
      log.warn('Could not cache the codes', e);
    }
  }

  private async saveKeyToCache(key: CachedAuthenticatorKey): Promise<void> {
    if (!(await this.stillSignedIn())) return;
    try {
      await saveAuthenticatorKey(this.userID, key);
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
    if (userID === this.userID && !this.closed) return true;
    this.close();
    return false;
  }

  // --- Other tabs, the network, the clock

  private listen() {
    if (typeof BroadcastChannel !== 'undefined') {
      const channel = new BroadcastChannel(VAULT_CHANNEL);
      channel.onmessage = (event: MessageEvent) => {
        if (event.data === CHANGED_MESSAGE) void this.sync();
      };
      this.channel = channel;
    }
    if (typeof window !== 'undefined') {
      const online = () => void this.sync();
      const offline = () => this.wentOffline();
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      this.cleanups.push(() => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
      });
    }
    if (typeof document !== 'undefined') {
      const visibility = () => {
        if (document.visibilityState === 'visible') void this.sync();
      };
      document.addEventListener('visibilitychange', visibility);
      this.cleanups.push(() => document.removeEventListener('visibilitychange', visibility));
    }
    this.timer = setInterval(() => {
      if (typeof document === 'undefined' || document.visibilityState !== 'hidden') void this.sync();
    }, this.syncIntervalMs);
  }

  /** Tells the other tabs that the vault changed (they pull). */
  private announce() {
    try {
      this.channel?.postMessage(CHANGED_MESSAGE);
    } catch (e) {
      log.warn('Could not tell the other tabs about a change', e);
    }
  }

  // --- The snapshot

  private emit() {
    this.current = this.buildSnapshot();
    for (const listener of [...this.listeners]) listener();
  }

  private buildSnapshot(): VaultSnapshot {
    const previous = this.current;
    const items = this.itemsChanged ? Array.from(this.entries.values(), (entry) => entry.item) : previous.items;
    this.itemsChanged = false;
    const sameConflicts =
      previous.conflicts.length === this.conflicts.length &&
      previous.conflicts.every((conflict, index) => conflict === this.conflicts[index]);
    const snapshot: VaultSnapshot = {
      status: this.status,
      items,
      syncing: this.syncing,
      conflicts: sameConflicts ? previous.conflicts : [...this.conflicts],
      timeOffsetMs: this.timeOffsetMs,
    };
    if (this.readOnlyReason) snapshot.readOnlyReason = this.readOnlyReason;
    if (this.syncErrorKey) snapshot.syncErrorKey = this.syncErrorKey;
    return snapshot;
  }
}

function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine;
}

/**
 * The cursor after a page: its largest updatedAt, or one less after a full page whose last updatedAt
 * may continue on the next page. See: [Note: Vault sync]
 */
export function nextSinceTime(sinceTime: number, diff: readonly { updatedAt: number }[], limit: number): number {
  if (diff.length === 0) return sinceTime;
  let max = sinceTime;
  let min = Number.POSITIVE_INFINITY;
  for (const { updatedAt } of diff) {
    if (updatedAt > max) max = updatedAt;
    if (updatedAt < min) min = updatedAt;
  }
  if (diff.length >= limit && min < max) return max - 1;
  if (diff.length >= limit)
    log.warn(`A whole diff page shares updatedAt ${String(max)}; later rows with it may be missed`);
  return max;
}

/**
 * The item of one decrypted entity (docs/protocol.md#authenticator-data): the text is a JSON
 * string holding the code URI. The legacy object form `{rawData, display}` mobile also reads is
 * accepted: its `display` becomes the URI's codeDisplay when the URI has none. Anything else is a
 * BrokenItem with the text, kept visible.
 */
export function itemOf(id: string, updatedAt: number, text: string | null): VaultItem {
  if (text === null) return broken({ id, updatedAt, errorKey: 'vault.decryptionFailed' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return broken({ id, updatedAt, raw: text, errorKey: 'vault.notACode' });
  }
  const uri = typeof value === 'string' ? value : legacyURI(value);
  if (uri === undefined) return broken({ id, updatedAt, raw: text, errorKey: 'vault.notACode' });
  try {
    return { kind: 'code', code: { ...parseCodeURI(uri), id, updatedAt, uri } };
  } catch (e) {
    const errorKey = errorKeyOf(e) ?? 'vault.notACode';
    const item: BrokenItem = { id, updatedAt, raw: uri, errorKey };
    const values = (e as { values?: unknown } | null)?.values;
    if (typeof values === 'object' && values !== null) item.errorValues = values as Record<string, string>;
    const issuer = issuerHint(uri);
    if (issuer !== undefined) item.issuer = issuer;
    return broken(item);
  }
}

function broken(item: BrokenItem): VaultItem {
  return { kind: 'broken', item };
}

/** The `errorKey` a parse error carries (CodeParseError of code-uri.ts). */
function errorKeyOf(e: unknown): string | undefined {
  const key = (e as { errorKey?: unknown } | null)?.errorKey;
  return typeof key === 'string' ? key : undefined;
}

/** A best-effort issuer of a URI that does not parse, for the broken item's title. */
function issuerHint(uri: string): string | undefined {
  try {
    const url = new URL(uri.replace(/#/g, '%23'));
    const param = url.searchParams.get('issuer');
    if (param) return param;
    const path = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const colon = path.indexOf(':');
    const issuer = colon >= 0 ? path.slice(0, colon) : path;
    return issuer || undefined;
  } catch {
    return undefined;
  }
}

/** A Code from a URI we just wrote (as any reader will parse it), or from the data when it does not parse. */
function codeOf(uri: string, id: string, updatedAt: number, data: CodeData): Code {
  try {
    return { ...parseCodeURI(uri), id, updatedAt, uri };
  } catch (e) {
    log.warn('A code we wrote does not parse back', e);
    return { ...data, id, updatedAt, uri };
  }
}

function updatedAtOf(item: VaultItem): number {
  return item.kind === 'code' ? item.code.updatedAt : item.item.updatedAt;
}

/** The VaultError that explains a failure. */
export function toVaultError(e: unknown): VaultError {
  if (e instanceof VaultError) return e;
  const cause = { cause: e };
  if (e instanceof NetworkError) return new VaultError('vault.offline', cause);
  if (e instanceof TokenMissingError) return new VaultError('vault.notSignedIn', cause);
  if (e instanceof DecryptionError) return new VaultError('vault.decryptionFailed', cause);
  if (e instanceof ServerError || e instanceof ResponseShapeError) return new VaultError('vault.serverError', cause);
  const status = httpStatusOf(e);
  if (status === 401) return new VaultError('vault.sessionExpired', cause);
  // The account's quota on the server (docs/protocol.md#authenticator), and its hourly limit on changes.
  if (e instanceof ApiError && e.errCode === 'ENTITY_LIMIT_REACHED') return new VaultError('vault.quotaReached', cause);
  if (status === 429) return new VaultError('vault.tooManyChanges', cause);
  if (status !== undefined) return new VaultError(status >= 500 ? 'vault.serverError' : 'vault.requestFailed', cause);
  return new VaultError('vault.unknown', cause);
}
