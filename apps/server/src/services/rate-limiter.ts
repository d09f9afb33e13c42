// Fixed-window counters kept in PostgreSQL, so every server process on one database shares them
// (docs/decisions.md#api-server). One upsert per counted request.
import { sql } from 'kysely';

import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';

export class RateLimiter {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  /** Counts one request under `key`; true while the window's count stays within `limit`. */
  async allow(key: string, limit: number, windowMicros: number): Promise<boolean> {
    return (await this.count(key, windowMicros)) <= limit;
  }

  /** The current window's count of `key`, without adding to it (a limit that counts only failures checks it first). */
  async current(key: string, windowMicros: number): Promise<number> {
    const windowStart = Math.floor(this.clock.nowMicros() / windowMicros) * windowMicros;
    const row = await this.db
      .selectFrom('rate_limits')
      .select('count')
      .where((eb) => eb.and({ key, window_start: windowStart }))
      .executeTakeFirst();
    return row?.count ?? 0;
  }

  /** Adds one to the current window of `key` and returns the new count. */
  async count(key: string, windowMicros: number): Promise<number> {
    const windowStart = Math.floor(this.clock.nowMicros() / windowMicros) * windowMicros;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart, count: 1 })
      .onConflict((conflict) =>
        conflict.columns(['key', 'window_start']).doUpdateSet({ count: sql<number>`rate_limits.count + 1` }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    return row.count;
  }
}
