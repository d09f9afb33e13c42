// E-mail codes (docs/protocol.md#e-mail-codes, docs/protocol.md#e-mail-code-rules): six digits from a
// CSPRNG, stored per (e-mail, app), single use, 10 live at most, 20 wrong attempts lock verification
// until they expire. Every limit is counted in the database so that several server processes share it.
import { sql } from 'kysely';

import { limits, type OttPurpose } from '@ente/protocol';

import type { ClientApp } from '../http/client-app.ts';
import { apiError, plainError, type HttpError } from '../http/errors.ts';
import { MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../lib/clock.ts';
import { randomSixDigits } from '../lib/totp.ts';
import type { Context } from './context.ts';
import { hasKeyAttributes, userByEmail } from './users.ts';

const SEND_WINDOW = 5 * MICROS_PER_MINUTE;
const GLOBAL_BLOCK = 10 * MICROS_PER_MINUTE;

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
  const live = await ctx.db
    .selectFrom('otts')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('email', '=', email)
    .where('app', '=', app)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  if (Number(live.count) >= limits.maxLiveOtts) throw plainError(429);
  await checkPerIpSendLimit(ctx, ip);

  const fixed = purpose === 'change' ? undefined : fixedOtt(ctx, email);
  const ott = fixed ?? randomSixDigits();
  const expiresAt = now + ctx.config.OTT_LIFETIME_MINUTES * MICROS_PER_MINUTE;
  await ctx.db
    .insertInto('otts')
    .values({ email, app, ott, created_at: now, expires_at: expiresAt })
    .onConflict((conflict) =>
      conflict.columns(['email', 'app', 'ott']).doUpdateSet({ created_at: now, expires_at: expiresAt }),
    )
    .execute();
  await ctx.db.insertInto('ott_sends').values({ ip, sent_at: now }).execute();
  if (fixed) return; // a configured test address: no mail (docs/protocol.md#fixed-codes-for-testing)
  await ctx.mailer.send({
    to: email,
    subject: `Verification code: ${ott}`,
    text:
      `Your verification code is ${ott}.\n\n` +
      `It expires in ${ctx.config.OTT_LIFETIME_MINUTES} minutes. If you did not ask for it, ignore this e-mail.`,
  });
}

/**
 * Verifies and consumes a code for (email, app): 429 once 20 wrong attempts were made on the live
 * codes, 410 when none is live, 401 (counting a wrong attempt on every live code) when it doesn't match.
 */
export async function consumeOtt(ctx: Context, email: string, app: ClientApp, ott: string): Promise<void> {
  const now = ctx.clock.nowMicros();
  const live = await ctx.db
    .selectFrom('otts')
    .select(['wrong_attempts'])
    .where('email', '=', email)
    .where('app', '=', app)
    .where('expires_at', '>', now)
    .execute();
  if (live.some((row) => row.wrong_attempts >= limits.maxOttWrongAttempts)) throw plainError(429);
  if (live.length === 0) throw plainError(410);
  // Deleting is the check: of two concurrent requests with the same code only one gets the row.
  const consumed = await ctx.db
    .deleteFrom('otts')
    .where('email', '=', email)
    .where('app', '=', app)
    .where('ott', '=', ott)
    .where('expires_at', '>', now)
    .returning('ott')
    .executeTakeFirst();
  if (consumed) return;
  await ctx.db
    .updateTable('otts')
    .set({ wrong_attempts: sql<number>`wrong_attempts + 1` })
    .where('email', '=', email)
    .where('app', '=', app)
    .where('expires_at', '>', now)
    .execute();
  throw plainError(401);
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
