// E-mail codes (docs/protocol.md#e-mail-codes, docs/protocol.md#e-mail-code-rules): six digits from a
// CSPRNG, stored per (e-mail, app) as a keyed hash only, single use, 10 usable at most. Guessing is
// bounded per code, not per person (docs/decisions.md#limits-that-stop-the-attacker): every wrong guess at
// an address, from any app, counts against each of its live codes, and a code that met 20 dies alone, so a
// freshly sent one always works; one client address gets 9 tries per address and code lifetime, too few
// to kill a code by itself. Every limit is counted in the database, so several server processes share it.
import { timingSafeEqual } from 'node:crypto';

import { sql } from 'kysely';

import { limits, type OttPurpose } from '@ente/protocol';

import type { ClientApp } from '../http/client-app.ts';
import { apiError, plainError, type HttpError } from '../http/errors.ts';
import { MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../lib/clock.ts';
import { hmacSha256B64 } from '../lib/hashing.ts';
import { randomSixDigits } from '../lib/totp.ts';
import type { Context } from './context.ts';
import { hasKeyAttributes, userByEmail } from './users.ts';

const SEND_WINDOW = 5 * MICROS_PER_MINUTE;
const GLOBAL_BLOCK = 10 * MICROS_PER_MINUTE;
/**
 * Tries one client address may make at one e-mail address per code lifetime. A code's life meets at
 * most two such windows, so one address alone stays under the 20 wrong guesses that kill a code.
 */
const OTT_TRIES_PER_ADDRESS = Math.floor((limits.maxOttWrongAttempts - 1) / 2);

export interface OttRequest {
  email: string;
  purpose: OttPurpose | undefined;
  app: ClientApp;
  ip: string;
}

/** POST /users/ott: the checks of docs/protocol.md#e-mail-codes in order, then store the code and mail it. */
export async function sendOtt(ctx: Context, { email, purpose, app, ip }: OttRequest): Promise<void> {
  await checkGlobalSendBlock(ctx);
  const disclosure = await purposeError(ctx, email, purpose);
  if (disclosure) {
    // Answers that reveal whether an account exists share one global hourly budget; past it they
    // are swallowed: 200, and nothing is sent.
    const count = await ctx.limiter.count('disclosure:send-ott', MICROS_PER_HOUR);
    if (count > ctx.config.DISCLOSURE_LIMIT_PER_HOUR) return;
    throw disclosure;
  }
  const now = ctx.clock.nowMicros();
  // Codes killed by guessing do not count: a stranger cannot keep a person from getting a fresh one.
  const live = await ctx.db
    .selectFrom('otts')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('email', '=', email)
    .where('app', '=', app)
    .where('expires_at', '>', now)
    .where('wrong_attempts', '<', limits.maxOttWrongAttempts)
    .executeTakeFirstOrThrow();
  if (Number(live.count) >= limits.maxLiveOtts) throw plainError(429);
  await checkPerIpSendLimit(ctx, ip);

  const fixed = purpose === 'change' ? undefined : fixedOtt(ctx, email);
  const ott = fixed ?? randomSixDigits();
  const stored = await ctx.db
    .insertInto('otts')
    .values({
      email,
      app,
      ott_hash: ottHash(ctx, email, app, ott),
      created_at: now,
      expires_at: now + ctx.config.OTT_LIFETIME_MINUTES * MICROS_PER_MINUTE,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const send = await ctx.db
    .insertInto('ott_sends')
    .values({ ip, sent_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (fixed) return; // a configured test address: no mail (docs/protocol.md#fixed-codes-for-testing)
  try {
    await ctx.mailer.send({
      to: email,
      subject: `Verification code: ${ott}`,
      text:
        `Your verification code is ${ott}.\n\n` +
        `It expires in ${ctx.config.OTT_LIFETIME_MINUTES} minutes. If you did not ask for it, ignore this e-mail.`,
    });
  } catch (error) {
    // A code nobody received must not stay usable (or count as sent): both rows go, and the client
    // hears that the mail failed, not that the server broke.
    await ctx.db.deleteFrom('otts').where('id', '=', stored.id).execute();
    await ctx.db.deleteFrom('ott_sends').where('id', '=', send.id).execute();
    ctx.log.error({ mailError: describeMailError(error) }, 'could not send an e-mail code');
    throw apiError(502, 'EMAIL_NOT_SENT', 'the e-mail could not be sent; try again later');
  }
}

/**
 * Verifies and consumes a code for (email, app). 429 once this client address used its tries at this
 * e-mail address, or when every live code of (email, app) met 20 wrong guesses; 410 when none is live;
 * 401 when the code matches none. Each try first reserves one guess on every live code of the address
 * (all apps) with an atomic update, so concurrent guesses cannot exceed the limit; a right code gives the
 * others their guess back.
 */
export async function consumeOtt(ctx: Context, request: OttCheck): Promise<void> {
  const { email, app, ott, ip } = request;
  const now = ctx.clock.nowMicros();
  const window = ctx.config.OTT_LIFETIME_MINUTES * MICROS_PER_MINUTE;
  const tries = await ctx.limiter.count(`ott-tries:${hmacSha256B64(ctx.secrets.ottHashKey, email)}:${ip}`, window);
  if (tries > OTT_TRIES_PER_ADDRESS) throw plainError(429);
  const reserved = await ctx.db
    .updateTable('otts')
    .set({ wrong_attempts: sql<number>`wrong_attempts + 1` })
    .where('email', '=', email)
    .where('expires_at', '>', now)
    .where('wrong_attempts', '<', limits.maxOttWrongAttempts)
    .returning(['id', 'app', 'ott_hash'])
    .execute();
  const candidates = reserved.filter((row) => row.app === app);
  if (candidates.length === 0) {
    const dead = await ctx.db
      .selectFrom('otts')
      .select('id')
      .where('email', '=', email)
      .where('app', '=', app)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    throw plainError(dead ? 429 : 410);
  }
  const expected = Buffer.from(ottHash(ctx, email, app, ott), 'base64');
  // Every candidate is compared, in constant time, whatever the first comparisons gave.
  let match: (typeof candidates)[number] | undefined;
  for (const row of candidates) {
    if (timingSafeEqual(Buffer.from(row.ott_hash, 'base64'), expected)) match ??= row;
  }
  if (!match) throw plainError(401);
  // Deleting is the check: of two concurrent requests with the same code only one gets the row.
  const consumed = await ctx.db.deleteFrom('otts').where('id', '=', match.id).returning('id').executeTakeFirst();
  const others = reserved.filter((row) => row.id !== match.id).map((row) => row.id);
  if (others.length > 0) {
    await ctx.db
      .updateTable('otts')
      .set({ wrong_attempts: sql<number>`wrong_attempts - 1` })
      .where('id', 'in', others)
      .where('wrong_attempts', '>', 0)
      .execute();
  }
  if (!consumed) throw plainError(410);
}

export interface OttCheck {
  email: string;
  app: ClientApp;
  ott: string;
  ip: string;
}

/** The stored form of a code: HMAC-SHA256 under the server's key, bound to its address and app. */
function ottHash(ctx: Context, email: string, app: ClientApp, ott: string): string {
  return hmacSha256B64(ctx.secrets.ottHashKey, `${email}\n${app}\n${ott}`);
}

/** What may be logged of a mail failure: the SMTP stage and status, never the message (it holds the code). */
function describeMailError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { kind: typeof error };
  const { code, responseCode, command } = error as Error & {
    code?: unknown;
    responseCode?: unknown;
    command?: unknown;
  };
  return { name: error.name, code, responseCode, command };
}

async function purposeError(ctx: Context, email: string, purpose: OttPurpose | undefined): Promise<HttpError | null> {
  if (purpose === undefined) return null;
  const user = await userByEmail(ctx, email);
  const complete = user !== undefined && (await hasKeyAttributes(ctx, Number(user.user_id)));
  switch (purpose) {
    case 'change':
      return user ? plainError(403) : null;
    case 'signup':
      if (complete) return apiError(409, 'USER_ALREADY_REGISTERED', 'User is already registered');
      return ctx.config.DISABLE_REGISTRATION && !user ? plainError(403) : null;
    case 'login':
      if (!user) return apiError(404, 'USER_NOT_REGISTERED', 'User is not registered');
      return complete ? null : apiError(404, 'USER_SIGNUP_INCOMPLETE', 'User has not completed signup');
  }
}

/** Once the hard limit of sends happened within 5 minutes, every send is refused for 10 minutes. */
async function checkGlobalSendBlock(ctx: Context): Promise<void> {
  const hard = ctx.config.OTT_SEND_HARD_LIMIT;
  if (hard === 0) return;
  const now = ctx.clock.nowMicros();
  const block = await ctx.db
    .selectFrom('rate_limits')
    .select('window_start')
    .where('key', '=', 'ott-global-block')
    .where('window_start', '>', now)
    .executeTakeFirst();
  if (block) throw plainError(429);
  const recent = await sendsSince(ctx, now - SEND_WINDOW);
  if (recent >= hard) {
    await ctx.db
      .insertInto('rate_limits')
      .values({ key: 'ott-global-block', window_start: now + GLOBAL_BLOCK, count: 1 })
      .onConflict((conflict) => conflict.columns(['key', 'window_start']).doNothing())
      .execute();
    throw plainError(429);
  }
}

/** Past the soft limit of sends within 5 minutes, each IP may send one code per 5 minutes. */
async function checkPerIpSendLimit(ctx: Context, ip: string): Promise<void> {
  const soft = ctx.config.OTT_SEND_SOFT_LIMIT;
  if (soft === 0) return;
  const since = ctx.clock.nowMicros() - SEND_WINDOW;
  if ((await sendsSince(ctx, since)) < soft) return;
  const fromIp = await ctx.db
    .selectFrom('ott_sends')
    .select('id')
    .where('ip', '=', ip)
    .where('sent_at', '>', since)
    .executeTakeFirst();
  if (fromIp) throw plainError(429);
}

async function sendsSince(ctx: Context, since: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('ott_sends')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('sent_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

function fixedOtt(ctx: Context, email: string): string | undefined {
  const listed = ctx.config.FIXED_OTTS.find((entry) => entry.email === email);
  if (listed) return listed.code;
  const suffix = ctx.config.FIXED_OTT_DOMAIN_SUFFIX;
  if (suffix && email.endsWith(suffix.toLowerCase())) return ctx.config.FIXED_OTT_DOMAIN_CODE;
  return undefined;
}
