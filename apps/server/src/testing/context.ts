// Services without HTTP: the context the routes get (database, clock, mailer, secrets, caches), on the
// database a test server would use (an in-memory PGlite from the migrated template, or a scratch database
// on DATABASE_URL), so a service test calls services directly.
import { after, before } from 'node:test';

import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';

import { createPglite, openDatabase } from '../db/database.ts';
import { ManualClock } from '../lib/clock.ts';
import { closeContext, createContext, type Context } from '../services/context.ts';
import { setKeyAttributes } from '../services/users.ts';
import { suiteDatabaseUrl, testConfig } from './config.ts';
import { CapturingMailer, createScratchDatabase, migratedTemplate } from './server.ts';

export interface TestContext {
  ctx: Context;
  clock: ManualClock;
  mail: CapturingMailer;
  /** Runs one SQL statement (setting up states the services can't reach fast). */
  sql(statement: string): Promise<unknown[]>;
  close(): Promise<void>;
}

export async function startTestContext(env: Record<string, string> = {}): Promise<TestContext> {
  const suiteDatabase = suiteDatabaseUrl();
  const database = suiteDatabase ? await createScratchDatabase(suiteDatabase) : undefined;
  const config = testConfig({ SRP_THREADS: '1', ...(database ? { DATABASE_URL: database.url } : {}), ...env });
  const pglite = config.DATABASE_URL ? undefined : await createPglite({ loadDataDir: await migratedTemplate() });
  const db = await openDatabase({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, pglite });
  const clock = new ManualClock();
  const mail = new CapturingMailer();
  const ctx = await createContext(config, db, silentLogger, { clock, mailer: mail });
  return {
    ctx,
    clock,
    mail,
    async sql(statement) {
      return (await sql.raw(statement).execute(ctx.db)).rows;
    },
    async close() {
      await closeContext(ctx);
      await database?.drop();
    },
  };
}

/** A test context shared by the tests of the enclosing `describe`: made before them, closed after them. */
export function suiteContext(env: Record<string, string> = {}): () => TestContext {
  let current: TestContext | undefined;
  before(async () => {
    current = await startTestContext(env);
  });
  after(() => current?.close());
  return () => current ?? fail('The suite context is used before it was made (outside a test?)');
}

function fail(message: string): never {
  throw new Error(message);
}

/** A user row with this e-mail (and nothing else: no key attributes, no password). */
export async function insertUser(ctx: Context, email: string): Promise<number> {
  const row = await ctx.db
    .insertInto('users')
    .values({ email, source: null, created_at: ctx.clock.nowMicros() })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  return Number(row.user_id);
}

/** A user with key attributes (placeholder keys of the right lengths: no service opens them). */
export async function insertUserWithKeyAttributes(ctx: Context, email: string): Promise<number> {
  const userID = await insertUser(ctx, email);
  const b64 = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');
  await setKeyAttributes(ctx, userID, {
    kekSalt: b64(16),
    encryptedKey: b64(48),
    keyDecryptionNonce: b64(24),
    publicKey: b64(32),
    encryptedSecretKey: b64(48),
    secretKeyDecryptionNonce: b64(24),
    memLimit: 268_435_456,
    opsLimit: 16,
  });
  return userID;
}

const noop = () => undefined;
const silentLogger = {
  level: 'silent',
  fatal: noop,
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  trace: noop,
  silent: noop,
  child: () => silentLogger,
} as unknown as FastifyBaseLogger;
