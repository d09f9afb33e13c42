// Opens the database the configuration names: embedded PGlite in DATA_DIR (or in memory) when
// DATABASE_URL is unset, node-postgres otherwise. Both go through Kysely with the same SQL, and the
// migrations run at start (concurrent starts on one PostgreSQL are serialised by Kysely's migration
// lock).
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql, type Dialect } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import pg from 'pg';

import { migrations } from './migrations.ts';
import { PreparedPGliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** postgres:// URL; when absent PGlite is used. */
  url?: string;
  /** PGlite data folder; "memory://" (or undefined) keeps everything in memory. */
  dataDir?: string;
  /** Pool size for node-postgres. */
  poolSize?: number;
  /** An already created PGlite to use instead (tests start from a migrated template this way). */
  pglite?: PGlite;
}

export async function openDatabase(options: DatabaseOptions): Promise<Db> {
  const db = new Kysely<Database>({ dialect: await dialectFor(options) });
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

async function dialectFor({ url, dataDir, poolSize, pglite: given }: DatabaseOptions): Promise<Dialect> {
  if (given) return new PreparedPGliteDialect(given);
  if (url) {
    // int8 stays a string (pg's default); make that explicit so no one "fixes" it per query.
    const pool = new pg.Pool({ connectionString: url, max: poolSize ?? 10 });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it. Queries in flight report their own errors.
    });
    return new PostgresDialect({ pool });
  }
  const inMemory = !dataDir || dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(path.resolve(dataDir), { recursive: true });
  // See: [Note: PGlite durability]
  const pglite = await createPglite({ dataDir: inMemory ? undefined : path.resolve(dataDir) });
  return new PreparedPGliteDialect(pglite);
}

/** A PGlite with the settings this server relies on: durable commits and int8 read as a string. */
export function createPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PGlite> {
  return PGlite.create({
    ...options,
    relaxedDurability: false,
    parsers: { [types.INT8]: (value: string) => value },
  });
}

// [Note: PGlite durability]
// With a data folder, PGlite mounts it through Emscripten's NODEFS: every write() PostgreSQL makes to
// its WAL is a real write(2) on the folder's files, and with relaxedDurability off each query's
// promise resolves only after PGlite has synced its file system. A COMMIT therefore has its WAL in the
// OS page cache before the HTTP answer goes out, which is what surviving `kill -9` of the server needs
// (the durability test proves it). It does not promise survival of a power loss: NODEFS does not
// fsync. Use DATABASE_URL with a real PostgreSQL for that.

async function migrate(db: Db): Promise<void> {
  const provider = {
    getMigrations(): Promise<Record<string, Migration>> {
      const all = Object.fromEntries(
        Object.entries(migrations).map(([name, statements]): [string, Migration] => [
          name,
          {
            async up(tx) {
              for (const statement of statements) await sql.raw(statement).execute(tx);
            },
          },
        ]),
      );
      return Promise.resolve(all);
    },
  };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error);
    throw new Error(`database migration ${failed ?? ''} failed: ${reason}`, { cause: error });
  }
}
