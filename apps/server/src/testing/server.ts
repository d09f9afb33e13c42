// Test servers: the real app listening on a free port, with an in-memory PGlite by default or, when
// DATABASE_URL is set, a fresh database created on that PostgreSQL and dropped afterwards. Mail is
// captured so tests can read the codes.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';

import type { Mailer, MailMessage } from '../adapters/mailer.ts';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { createPglite, openDatabase } from '../db/database.ts';
import { migrations } from '../db/migrations.ts';
import { ManualClock } from '../lib/clock.ts';
import { ApiClient } from './client.ts';
import { suiteDatabaseUrl, testConfig } from './config.ts';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  config: Config;
  clock: ManualClock;
  mail: CapturingMailer;
  /** Runs one SQL statement on the server's database (setting up states the API can't reach fast). */
  sql(statement: string): Promise<unknown[]>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Extra environment for the configuration (strings, as in the real environment). */
  env?: Record<string, string>;
  /** Keep the real mailer from the configuration (the SMTP test). */
  realMailer?: boolean;
}

/** Route rate limits are raised in tests except where a test sets them itself. */
const testDefaults = { RATE_LIMIT_PER_MINUTE: '10000' };

/**
 * A test server (and an API client for it) shared by the tests of the enclosing `describe`: started
 * before them, closed after them. The returned objects forward to the real ones once started.
 */
export function suiteServer(options: TestServerOptions = {}): { server: TestServer; api: ApiClient } {
  let server: TestServer | undefined;
  let api: ApiClient | undefined;
  before(async () => {
    server = await startTestServer(options);
    api = new ApiClient(server.url);
  });
  after(() => server?.close());
  return { server: forwardTo(() => server), api: forwardTo(() => api) };
}

/** An object whose properties are those of `current()`, which must be set by the time it is used. */
function forwardTo<T extends object>(current: () => T | undefined): T {
  const target = () => current() ?? fail('The suite server is used before it started (outside a test?)');
  return new Proxy({} as T, {
    get(_, property) {
      const value: unknown = Reflect.get(target(), property, target());
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target()) : value;
    },
    set: (_, property, value) => Reflect.set(target(), property, value, target()),
  });
}

function fail(message: string): never {
  throw new Error(message);
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const suiteDatabase = suiteDatabaseUrl();
  const database = suiteDatabase ? await createScratchDatabase(suiteDatabase) : undefined;
  const config = testConfig({
    ...testDefaults,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const clock = new ManualClock();
  const mail = new CapturingMailer();
  const pglite = config.DATABASE_URL ? undefined : await createPglite({ loadDataDir: await migratedTemplate() });
  const app = await buildApp(config, { clock, mailer: options.realMailer ? undefined : mail, pglite });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    app,
    config,
    clock,
    mail,
    async sql(statement) {
      return (await sql.raw(statement).execute(app.ctx.db)).rows;
    },
    async close() {
      await app.close();
      await database?.drop();
    },
  };
}

export class CapturingMailer implements Mailer {
  readonly messages: MailMessage[] = [];
  send(message: MailMessage): Promise<void> {
    this.messages.push(message);
    return Promise.resolve();
  }
  close(): void {}
  /** The last code mailed to `email` (from the "Verification code: NNNNNN" subject). */
  lastCode(email: string): string {
    const message = [...this.messages]
      .reverse()
      .find((m) => m.to === email && m.subject.startsWith('Verification code: '));
    if (!message) throw new Error(`no code was mailed to ${email}`);
    return message.subject.slice('Verification code: '.length);
  }
}

/**
 * A dump of a freshly migrated PGlite, cached in the temp folder under a hash of the migrations:
 * loading it is several times faster than PGlite's own first start (initdb) plus the migrations.
 */
export async function migratedTemplate(): Promise<Blob> {
  templatePromise ??= (async () => {
    const hash = createHash('sha256').update(JSON.stringify(migrations)).update(pgliteVersion).digest('hex');
    const file = path.join(os.tmpdir(), `ente-server-pglite-${hash.slice(0, 16)}.tar`);
    try {
      return new Blob([await readFile(file)]);
    } catch {
      const pglite = await createPglite();
      const db = await openDatabase({ pglite });
      const dump = await pglite.dumpDataDir('none');
      await db.destroy();
      const partial = `${file}.${process.pid}`;
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
      await rename(partial, file);
      return dump;
    }
  })();
  return templatePromise;
}
let templatePromise: Promise<Blob> | undefined;
const pgliteVersion = '0.5.16';

/** A database of its own on the PostgreSQL at `url`, so tests never see each other's rows. */
export async function createScratchDatabase(url: string) {
  const name = `ente_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
