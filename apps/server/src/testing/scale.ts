// The server side of bench/scale.mjs, run as its own process (`node --import tsx src/testing/scale.ts …`
// in apps/server) because it needs @ente/crypto and the server's database layer, which the bench may not
// import (config/eslint-layers.mjs). Two commands:
//
//   seed --out FILE --users N --codes-per-user C --login-users L --sync-users S
//     Fills the database of the environment (DATABASE_URL, else the PGlite of DATA_DIR, read by the server's
//     own loadConfig and opened by its openDatabase, which finds it migrated) with N accounts through bulk SQL:
//     users, key_attributes, srp_auth, authenticator_key, C entities each, one token each. Ciphertexts are
//     random bytes of the right shapes (the server never decrypts them). The first L accounts get real SRP
//     verifiers (a random login subkey each), the others random 512-byte ones; S accounts spread over the
//     range keep their token's plaintext. FILE gets what the bench needs (login subkeys, tokens), the
//     timings, the sizes and EXPLAIN ANALYZE of the hot queries.
//
//   login --accounts FILE --url URL [--client-index I --clients K]
//     The client side of SRP logins (createSrpClient), driven by the bench over IPC (K such processes share
//     the accounts: this one takes I, I + K, I + 2K, …): for each `{ type: 'round', concurrency, seconds }` it
//     runs `concurrency` loops of complete logins (attributes, create-session, verify-session, M2 checked) over
//     distinct accounts for that long, then answers `{ type: 'end', result }` with when each login ended and how
//     long it took: the bench counts those that ended in its own measured window.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { sql, type RawBuilder } from 'kysely';

import { computeSrpVerifierB64, createSrpClient, toB64, toB64Url } from '@ente/crypto';
import type { EmailAuthorizationResponse, SrpAttributesResponse, SrpCreateSessionResponse } from '@ente/protocol';

import { loadConfig } from '../config.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { sha256B64Url } from '../lib/hashing.ts';

/** The e-mail of account `i` (1-based); the bench builds the same addresses from `emailTemplate`. */
const emailTemplate = 'scale-{i}@example.org';
const emailOf = (i: number) => emailTemplate.replace('{i}', String(i));

export interface LoginAccount {
  email: string;
  loginSubKey: string;
}

export interface SeedOutput {
  database: 'postgresql' | 'pglite';
  users: number;
  codesPerUser: number;
  emailTemplate: string;
  loginAccounts: LoginAccount[];
  /** Plaintext tokens (app "auth") of the sync accounts. */
  syncTokens: string[];
  timingsMs: Record<string, number>;
  rows: Record<string, number>;
  databaseBytes: number;
  explain: Record<string, string[]>;
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    users: { type: 'string', default: '10000' },
    'codes-per-user': { type: 'string', default: '10' },
    'login-users': { type: 'string', default: '500' },
    'sync-users': { type: 'string', default: '100' },
    accounts: { type: 'string' },
    url: { type: 'string' },
    'client-index': { type: 'string', default: '0' },
    clients: { type: 'string', default: '1' },
  },
});

async function seedCommand() {
  const out = values.out;
  if (!out) throw new Error('seed: --out is required');
  const users = positiveInteger('users');
  const codesPerUser = positiveInteger('codes-per-user');
  const loginUsers = Math.min(users, positiveInteger('login-users'));
  const syncUsers = Math.min(users, positiveInteger('sync-users'));
  const config = loadConfig();
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  try {
    const output = await seed(db, { users, codesPerUser, loginUsers, syncUsers, postgres: !!config.DATABASE_URL });
    writeFileSync(out, JSON.stringify(output));
  } finally {
    await db.destroy();
  }
}

interface SeedOptions {
  users: number;
  codesPerUser: number;
  loginUsers: number;
  syncUsers: number;
  postgres: boolean;
}

async function seed(db: Db, options: SeedOptions): Promise<SeedOutput> {
  const { users, codesPerUser, loginUsers, syncUsers } = options;
  const timingsMs: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await work();
    timingsMs[name] = Math.round(performance.now() - start);
    return result;
  };
  const run = (statement: string) => sql.raw(statement).execute(db);
  const now = Date.now() * 1000;
  const day = 86_400_000_000;
  const ours = `u.email LIKE 'scale-%@example.org'`;
  const total = performance.now();

  await timed('users', () =>
    run(`INSERT INTO users (email, created_at)
         SELECT replace('${emailTemplate}', '{i}', i::text), ${now - 30 * day} + i FROM generate_series(1, ${users}) AS i`),
  );
  const ids = await timed('userIds', async () => {
    const rows = await db
      .selectFrom('users')
      .select(['user_id', 'email'])
      .where('email', 'like', 'scale-%@example.org')
      .execute();
    return new Map(rows.map((row) => [row.email, row.user_id]));
  });
  const idOf = (i: number) => {
    const id = ids.get(emailOf(i));
    if (id === undefined) throw new Error(`no user ${emailOf(i)}`);
    return id;
  };

  await timed('keyAttributes', () =>
    run(`INSERT INTO key_attributes (user_id, kek_salt, encrypted_key, key_decryption_nonce, public_key,
           encrypted_secret_key, secret_key_decryption_nonce, mem_limit, ops_limit,
           master_key_encrypted_with_recovery_key, master_key_decryption_nonce,
           recovery_key_encrypted_with_master_key, recovery_key_decryption_nonce, created_at)
         SELECT u.user_id, ${b64(16)}, ${b64(48)}, ${b64(24)}, ${b64(32)}, ${b64(48)}, ${b64(24)}, 268435456, 16,
           ${b64(48)}, ${b64(24)}, ${b64(48)}, ${b64(24)}, u.created_at
         FROM users u WHERE ${ours}`),
  );

  // Real verifiers for the accounts that log in (about 10 ms of BigInt arithmetic each), random ones for the rest.
  const loginAccounts: LoginAccount[] = [];
  const realRows = await timed('srpVerifiers', () => {
    const rows = [];
    for (let i = 1; i <= loginUsers; i++) {
      const srpUserID = randomUUID();
      const srpSalt = toB64(randomBytes(16));
      const loginSubKey = toB64(randomBytes(16));
      const verifier = computeSrpVerifierB64({ srpUserID, srpSalt, loginSubKey });
      loginAccounts.push({ email: emailOf(i), loginSubKey });
      rows.push({
        user_id: idOf(i),
        srp_user_id: srpUserID,
        salt: srpSalt,
        verifier,
        created_at: now,
        updated_at: now,
      });
    }
    return Promise.resolve(rows);
  });
  await timed('srpAuth', async () => {
    for (const batch of chunks(realRows, 500)) await db.insertInto('srp_auth').values(batch).execute();
    await run(`INSERT INTO srp_auth (user_id, srp_user_id, salt, verifier, created_at, updated_at)
               SELECT u.user_id, gen_random_uuid(), ${b64(16)}, ${b64(512)}, u.created_at, u.created_at
               FROM users u WHERE ${ours} AND NOT EXISTS (SELECT 1 FROM srp_auth s WHERE s.user_id = u.user_id)`);
  });

  await timed('authenticatorKey', () =>
    run(`INSERT INTO authenticator_key (user_id, encrypted_key, header, created_at, updated_at)
         SELECT u.user_id, ${b64(48)}, ${b64(24)}, u.created_at, u.created_at FROM users u WHERE ${ours}`),
  );
  // updated_at is unique per user (a constraint): the k-th code of every account was written k µs after a
  // common time a day ago, so "sinceTime = now" finds nothing new.
  await timed('entities', () =>
    run(`INSERT INTO authenticator_entity (id, user_id, encrypted_data, header, is_deleted, created_at, updated_at)
         SELECT gen_random_uuid(), u.user_id, ${b64(180)}, ${b64(24)}, FALSE, ${now - day} + k, ${now - day} + k
         FROM users u CROSS JOIN generate_series(1, ${codesPerUser}) AS k WHERE ${ours}`),
  );

  // One token per account (only its hash is stored); the bench keeps the plaintext of the sync accounts.
  const syncTokens: string[] = [];
  const step = Math.max(1, Math.floor(users / syncUsers));
  await timed('tokens', async () => {
    const rows = [];
    for (let i = 1; i <= users; i++) {
      const token = toB64Url(randomBytes(32));
      if ((i - 1) % step === 0 && syncTokens.length < syncUsers) syncTokens.push(token);
      rows.push({
        token_hash: sha256B64Url(token),
        user_id: idOf(i),
        app: 'auth',
        ip: '127.0.0.1',
        user_agent: 'scale bench',
        created_at: now,
        last_used_at: now,
      });
    }
    for (const batch of chunks(rows, 1000)) await db.insertInto('tokens').values(batch).execute();
  });

  // PostgreSQL's autovacuum would have vacuumed and analysed these tables within a minute of the load; do it
  // now so that it does not happen during a measurement. PGlite has no autovacuum, so it stays without
  // statistics, as a PGlite deployment does.
  if (options.postgres) await timed('vacuumAnalyze', () => run('VACUUM ANALYZE'));
  timingsMs.total = Math.round(performance.now() - total);

  const counts: Record<string, number> = {};
  for (const table of ['users', 'key_attributes', 'srp_auth', 'authenticator_key', 'authenticator_entity', 'tokens']) {
    const { rows } = await sql<{ count: string }>`SELECT count(*) AS count FROM ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]?.count ?? 0);
  }
  const size = await sql<{ bytes: string }>`SELECT pg_database_size(current_database()) AS bytes`.execute(db);

  return {
    database: options.postgres ? 'postgresql' : 'pglite',
    users,
    codesPerUser,
    emailTemplate,
    loginAccounts,
    syncTokens,
    timingsMs,
    rows: counts,
    databaseBytes: Number(size.rows[0]?.bytes ?? 0),
    explain: await explainHotQueries(db, idOf(1), sha256B64Url(syncTokens[0] ?? ''), now),
  };
}

/** The plans of the queries every sync, login and rate-limited request makes, and of the minutely purge. */
async function explainHotQueries(db: Db, userID: string | number, tokenHash: string, now: number) {
  const plan = async (query: RawBuilder<unknown>) => {
    const { rows } = await query.execute(db);
    return rows.map((row) => String(Object.values(row as Record<string, unknown>)[0]));
  };
  const analyse = sql.raw('EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF)');
  const hour = 3_600_000_000;
  return {
    entityDiff: await plan(
      sql`${analyse} SELECT * FROM authenticator_entity WHERE user_id = ${userID} AND updated_at > ${0}
          ORDER BY updated_at ASC LIMIT ${500}`,
    ),
    tokenLookup: await plan(
      sql`${analyse} SELECT user_id, last_used_at FROM tokens WHERE token_hash = ${tokenHash} AND app = ${'auth'}
          AND is_deleted = ${false}`,
    ),
    userByEmail: await plan(
      sql`${analyse} SELECT user_id, email, is_email_mfa_enabled, is_two_factor_enabled FROM users
          WHERE email = ${emailOf(1)}`,
    ),
    srpAttributes: await plan(
      sql`${analyse} SELECT s.srp_user_id, s.salt, k.mem_limit, k.ops_limit, k.kek_salt FROM srp_auth s
          INNER JOIN key_attributes k ON k.user_id = s.user_id WHERE s.user_id = ${userID}`,
    ),
    srpUnverifiedCount: await plan(
      sql`${analyse} SELECT count(*) FROM srp_sessions WHERE srp_user_id = ${randomUUID()} AND is_verified = ${false}
          AND created_at > ${now - hour}`,
    ),
    // Every token is fresh, so this deletes nothing; it runs in a transaction that is rolled back all the same.
    purgeTokens: await db
      .transaction()
      .execute(async (tx) => {
        const { rows } = await sql`${analyse} DELETE FROM tokens WHERE is_deleted = ${true}
          OR last_used_at < ${now - 365 * 24 * hour}`.execute(tx);
        throw new RolledBack(rows.map((row) => String(Object.values(row as Record<string, unknown>)[0])));
      })
      .catch((error: unknown) => {
        if (error instanceof RolledBack) return error.lines;
        throw error;
      }),
    // Plain EXPLAIN: these would delete.
    purgeSrpSessions: await plan(
      sql`EXPLAIN (COSTS OFF) DELETE FROM srp_sessions WHERE created_at < ${now - 24 * hour}`,
    ),
    purgeRateLimits: await plan(
      sql`EXPLAIN (COSTS OFF) DELETE FROM rate_limits WHERE window_start < ${now - 2 * hour}`,
    ),
  };
}

/** Thrown to roll a transaction back, with what it found. */
class RolledBack extends Error {
  readonly lines: string[];

  constructor(lines: string[]) {
    super('rolled back');
    this.lines = lines;
  }
}

/** SQL for `bytes` random bytes in padded base64, one value per row (PostgreSQL breaks base64 into lines). */
function b64(bytes: number): string {
  const blocks = Array.from({ length: Math.ceil(bytes / 64) }, () => 'sha512(random()::text::bytea)');
  return `translate(encode(substr(${blocks.join(' || ')}, 1, ${bytes}), 'base64'), E'\\n', '')`;
}

function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

function positiveInteger(name: 'users' | 'codes-per-user' | 'login-users' | 'sync-users'): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

interface LoginRound {
  type: 'round';
  concurrency: number;
  /** How long to keep logging in. */
  seconds: number;
}

export interface LoginRoundResult {
  /** Each successful login: when it ended (µs of CLOCK_MONOTONIC, which the bench reads too) and how long it took. */
  logins: { endUs: number; ms: number }[];
  errors: number;
  firstError?: string;
  /** Accounts used so far; they wrap around after the last one. */
  accountsUsed: number;
}

function loginCommand(): void {
  const { accounts: file, url } = values;
  if (!file || !url || !process.send) throw new Error('login: --accounts and --url are required, over IPC');
  const { loginAccounts } = JSON.parse(readFileSync(file, 'utf8')) as SeedOutput;
  if (loginAccounts.length === 0) throw new Error('no accounts with a real verifier');
  const send = (message: unknown) => process.send?.(message);
  const index = Number(values['client-index']);
  const clients = Number(values.clients);
  let next = 0;
  const nextAccount = () => loginAccounts[(index + clients * next++) % loginAccounts.length]!;
  process.on('message', (received) => {
    const message = received as LoginRound | { type: 'exit' };
    if (message.type === 'exit') process.exit(0);
    void loginRound(url, message, nextAccount).then(
      (result) => send({ type: 'end', result: { ...result, accountsUsed: next } }),
      (error: unknown) => send({ type: 'error', message: String(error) }),
    );
  });
  send({ type: 'ready' });
}

/** `concurrency` loops of logins for `seconds`; the logins in flight at the end finish. */
async function loginRound(
  baseUrl: string,
  round: LoginRound,
  nextAccount: () => LoginAccount,
): Promise<Omit<LoginRoundResult, 'accountsUsed'>> {
  const deadline = performance.now() + round.seconds * 1000;
  const logins: LoginRoundResult['logins'] = [];
  let errors = 0;
  let firstError: string | undefined;
  const loop = async () => {
    while (performance.now() < deadline) {
      const begin = performance.now();
      try {
        await login(baseUrl, nextAccount());
        logins.push({
          endUs: Number(process.hrtime.bigint() / 1000n),
          ms: Math.round((performance.now() - begin) * 10) / 10,
        });
      } catch (error) {
        errors++;
        firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: round.concurrency }, loop));
  return { logins, errors, ...(firstError === undefined ? {} : { firstError }) };
}

/** One password login as a client makes it (docs/protocol.md#srp-login), with the server's M2 checked. */
async function login(baseUrl: string, account: LoginAccount): Promise<void> {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'X-Client-Package': 'io.ente.auth.web' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const { attributes } = await call<SrpAttributesResponse>(
    'GET',
    `/users/srp/attributes?email=${encodeURIComponent(account.email)}`,
  );
  const { srpUserID, srpSalt } = attributes;
  const client = await createSrpClient({ srpUserID, srpSalt, loginSubKey: account.loginSubKey });
  const session = await call<SrpCreateSessionResponse>('POST', '/users/srp/create-session', {
    srpUserID,
    srpA: client.srpA,
  });
  const srpM1 = client.computeM1B64(session.srpB);
  const verified = await call<EmailAuthorizationResponse & { srpM2: string }>('POST', '/users/srp/verify-session', {
    sessionID: session.sessionID,
    srpUserID,
    srpM1,
  });
  if (!client.verifyM2(verified.srpM2)) throw new Error('the server did not prove it knows the verifier');
  if (!verified.encryptedToken) throw new Error('the login answer has no encryptedToken');
}

// Last, so that every declaration above is initialised when the command runs.
const command = positionals[0];
if (command === 'seed') {
  await seedCommand();
} else if (command === 'login') {
  loginCommand();
} else {
  console.error('usage: scale.ts seed --out FILE [--users N …] | login --accounts FILE --url URL');
  process.exit(2);
}
