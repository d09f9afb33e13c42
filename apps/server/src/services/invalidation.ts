// Publishes cache invalidations (See: [Note: Cache invalidation] in cache.ts). Locally they apply at
// once; with node-postgres they also go out as NOTIFY ente_cache, '<kind>:<userID>', and a dedicated
// LISTEN connection applies the ones other processes send. PGlite has a single process: local only.
import { sql } from 'kysely';
import pg from 'pg';

import type { Db } from '../db/database.ts';
import type { Log } from '../lib/log.ts';
import type { CacheKind, SyncCache } from './cache.ts';

const CHANNEL = 'ente_cache';

export interface Invalidator {
  /** Call after the write committed and before answering. */
  publish(kind: CacheKind, userID: number): Promise<void>;
  close(): Promise<void>;
}

export function localInvalidator(cache: SyncCache): Invalidator {
  return {
    publish(kind, userID) {
      cache.invalidate(kind, userID);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}

export async function postgresInvalidator(url: string, db: Db, cache: SyncCache, log: Log): Promise<Invalidator> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      const [kind, id] = (message.payload ?? '').split(':');
      if ((kind === 'tokens' || kind === 'entities') && id) cache.invalidate(kind, Number(id));
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'cache invalidation listener failed; caching off until it reconnects');
      cache.setEnabled(false);
      next.end().catch(() => {});
      if (client === next) client = undefined;
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
    cache.setEnabled(true);
  };
  const scheduleReconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch(() => scheduleReconnect());
    }, 1000);
    retry.unref();
  };

  cache.setEnabled(false);
  await connect();
  return {
    async publish(kind, userID) {
      cache.invalidate(kind, userID);
      await sql`SELECT pg_notify(${CHANNEL}, ${`${kind}:${userID}`})`.execute(db);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
