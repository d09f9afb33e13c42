// In-process caches for the two reads that every sync request makes: "which user is this token?" and
// "has this user written anything since T?". Together they let GET /authenticator/entity/diff with
// nothing new answer without touching the database (see bench/server.mjs).
//
// [Note: Cache invalidation]
// Every write that could make a cached answer wrong invalidates it *after* its transaction committed
// and *before* its HTTP answer goes out: a client that saw a write acknowledged never gets a stale
// answer from this process. A reader stores what it read only if no invalidation for that user
// happened while it was reading (a generation counter per user), so a slow read can't resurrect an
// old value. With several processes on one PostgreSQL, invalidations also travel as NOTIFY on the
// channel `ente_cache` to every other process (see invalidation.ts); until the notification arrives —
// milliseconds — another process may still answer from its cache. If the listening connection drops,
// every cache is cleared and caching stays off until it is back. Entries also expire after a TTL, on
// the app's clock (a plain read of it, so the hot path stays synchronous).
import { MICROS_PER_SECOND, type Clock } from '../lib/clock.ts';

export interface CachedToken {
  userID: number;
  app: string;
  lastUsedAt: number;
}

export type CacheKind = 'tokens' | 'entities';

export interface SyncCacheOptions {
  clock: Clock;
  /** How long an entry is trusted; 0 turns caching off for good. */
  ttlSeconds: number;
  maxEntries?: number;
}

export class SyncCache {
  private readonly clock: Clock;
  private readonly ttlMicros: number;
  private readonly maxEntries: number;
  private readonly tokens = new Map<string, { value: CachedToken; until: number }>();
  private readonly tokensByUser = new Map<number, Set<string>>();
  private readonly entityMax = new Map<number, { value: number; until: number }>();
  private readonly generations = new Map<number, number>();
  /** Token reads don't know their user before reading, so token invalidations share one counter. */
  private tokenGeneration = 0;
  /** Bumped by clear(), so that every generation handed out before it is stale. */
  private epoch = 0;
  private enabled: boolean;
  private readonly alwaysOff: boolean;

  constructor(options: SyncCacheOptions) {
    this.clock = options.clock;
    this.ttlMicros = options.ttlSeconds * MICROS_PER_SECOND;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.alwaysOff = this.ttlMicros <= 0;
    this.enabled = !this.alwaysOff;
  }

  /** The generation to pass to `putToken` after reading a token from the database. */
  tokensGeneration(): string {
    return `${this.epoch}.${this.tokenGeneration}`;
  }

  /** The generation to pass to `putLatestEntityTime` after reading this user's entities. */
  entitiesGeneration(userID: number): string {
    return `${this.epoch}.${this.generations.get(userID) ?? 0}`;
  }

  token(tokenHash: string): CachedToken | undefined {
    const entry = this.tokens.get(tokenHash);
    if (!entry || !this.enabled) return undefined;
    if (entry.until < this.clock.nowMicros()) {
      this.tokens.delete(tokenHash);
      return undefined;
    }
    return entry.value;
  }

  putToken(tokenHash: string, value: CachedToken, generation: string): void {
    if (!this.enabled || generation !== this.tokensGeneration()) return;
    if (this.tokens.size >= this.maxEntries) this.clear();
    this.tokens.set(tokenHash, { value, until: this.clock.nowMicros() + this.ttlMicros });
    let hashes = this.tokensByUser.get(value.userID);
    if (!hashes) this.tokensByUser.set(value.userID, (hashes = new Set()));
    hashes.add(tokenHash);
  }

  /** A time no entity of the user was updated after, if known. */
  latestEntityTime(userID: number): number | undefined {
    const entry = this.entityMax.get(userID);
    if (!entry || !this.enabled) return undefined;
    if (entry.until < this.clock.nowMicros()) {
      this.entityMax.delete(userID);
      return undefined;
    }
    return entry.value;
  }

  /** Records that no entity of the user has updated_at > `value` (keeps the smaller bound). */
  putLatestEntityTime(userID: number, value: number, generation: string): void {
    if (!this.enabled || generation !== this.entitiesGeneration(userID)) return;
    const known = this.latestEntityTime(userID);
    if (known !== undefined && known <= value) return;
    if (this.entityMax.size >= this.maxEntries) this.clear();
    this.entityMax.set(userID, { value, until: this.clock.nowMicros() + this.ttlMicros });
  }

  invalidate(kind: CacheKind, userID: number): void {
    if (kind === 'entities') {
      this.generations.set(userID, (this.generations.get(userID) ?? 0) + 1);
      this.entityMax.delete(userID);
      return;
    }
    this.tokenGeneration += 1;
    for (const hash of this.tokensByUser.get(userID) ?? []) this.tokens.delete(hash);
    this.tokensByUser.delete(userID);
  }

  /** Turns caching on or off; both clear everything (used while invalidations may be missed). */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled && !this.alwaysOff;
    this.clear();
  }

  clear(): void {
    this.epoch += 1;
    this.generations.clear();
    this.tokens.clear();
    this.tokensByUser.clear();
    this.entityMax.clear();
  }
}
