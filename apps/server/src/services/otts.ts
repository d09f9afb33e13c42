// E-mail codes (docs/protocol.md#e-mail-codes, docs/protocol.md#e-mail-code-rules): six digits from a
// CSPRNG, stored per (e-mail, app) as a keyed hash only, single use, 10 usable at most (a new one drops
// the oldest; one client address may hold 3 of them). Sending never tells whether the address has an
// account, and mass mail to addresses without one is held back apart from codes to accounts. Guessing is
// bounded per code, not per person (docs/decisions.md#limits-that-stop-the-attacker): every wrong guess at
// an address, from any app, counts against each of its live codes, and a code that met 20 dies alone, so a
// freshly sent one always works; one client address gets 9 tries per address and code lifetime, too few
// to kill a code by itself. Every limit is counted in the database, so several server processes share it.
import { randomBytes, timingSafeEqual } from 'node:crypto';

import { limits, type OttPurpose } from '@ente/protocol';

import type { MailMessage } from '../adapters/mailer.ts';
import * as ottsDb from '../db/otts.ts';
import type { OttSendKind } from '../db/schema.ts';
import type { ClientApp } from '../http/client-app.ts';
import { plainError } from '../http/errors.ts';
import { MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../lib/clock.ts';
import { hmacSha256B64 } from '../lib/hashing.ts';
import { randomSixDigits } from '../lib/totp.ts';
import { afterAnswer, type Context } from './context.ts';

const SEND_WINDOW = 5 * MICROS_PER_MINUTE;
const NEW_ADDRESS_HOLD = 10 * MICROS_PER_MINUTE;
/**
 * Live codes one client address may have asked at one e-mail address and app: a stranger's sends use
 * up these, never the person's (the ten live codes of an address make room by dropping the oldest).
 */
const LIVE_OTTS_PER_SOURCE = 3;
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

/** What a send does for the address, decided without telling the requester which. */
type SendPlan = { mail: 'code'; note?: 'existing account' } | { mail: 'address taken' } | { mail: 'nothing' };

/**
 * POST /users/ott (docs/protocol.md#e-mail-codes): the limits, then a stored code and a mail. Every
 * accepted request answers an empty 200 whether or not the address has an account: a login for an
 * unknown address, a change to a taken one, and a send held back by the breaker store a code that
 * can never match and mail nothing (or a notice to the owner), so the client's verify answers 401 as
 * for a wrong code. Every limit counts these requests as it counts the others, so no limit tells
 * either (docs/decisions.md#security-second-pass-e-mail-codes-and-account-existence).
 */
export async function sendOtt(ctx: Context, { email, purpose, app, ip }: OttRequest): Promise<void> {
  if (purpose === 'signup' && ctx.config.DISABLE_REGISTRATION) throw plainError(403);
  await checkPerIpSendLimit(ctx, ip);
  const now = ctx.clock.nowMicros();
  // Codes killed by guessing do not count: a stranger cannot keep a person from getting a fresh one.
  const live = await ottsDb.liveOttsOf(ctx.db, email, app, now, limits.maxOttWrongAttempts);
  if (live.filter((row) => row.ip === ip).length >= LIVE_OTTS_PER_SOURCE) throw plainError(429);
  await checkRecipientLimit(ctx, email, ip);

  const account = await accountOf(ctx, email);
  const fixed = purpose === 'change' ? undefined : fixedOtt(ctx, email);
  let plan = planFor(ctx, purpose, account);
  let kind: OttSendKind = plan.mail === 'nothing' ? 'held' : account ? 'account' : 'new';
  // Asked for every request, so that the work done does not depend on the account either.
  const holdNewAddresses = await newAddressSendsHeld(ctx, now);
  if (kind === 'new' && !fixed && holdNewAddresses) {
    plan = { mail: 'nothing' };
    kind = 'held';
  }
  // Ten live codes at most per address and app: the oldest make room for the newest.
  const excess = live.length - (limits.maxLiveOtts - 1);
  if (excess > 0) {
    const oldest = live.slice(0, excess).map((row) => row.id);
    await ottsDb.deleteOtts(ctx.db, oldest);
  }
  const ott = plan.mail === 'code' ? (fixed ?? randomSixDigits()) : undefined;
  const ottID = await ottsDb.insertOtt(ctx.db, {
    email,
    app,
    // A request that mails no code stores a hash no code has, so that verify answers as for a wrong code.
    hash: ott === undefined ? randomBytes(32).toString('base64') : ottHash(ctx, email, app, ott),
    now,
    expiresAt: now + ctx.config.OTT_LIFETIME_MINUTES * MICROS_PER_MINUTE,
    ip,
  });
  const sendID = await ottsDb.insertSend(ctx.db, ip, now, kind);
  // A configured test address gets no mail (docs/protocol.md#fixed-codes-for-testing).
  if (plan.mail === 'nothing' || (plan.mail === 'code' && fixed !== undefined)) return;
  // The mail goes out after the answer: waiting for the SMTP server would let the answer's time, or a
  // failure, tell whether anything was mailed, and so whether the address has an account.
  afterAnswer(ctx, deliver(ctx, mailFor(ctx, email, plan, ott), ottID, sendID));
}

/**
 * Sends one mail of POST /users/ott. When it fails, its code can never match (verify then answers as
 * for a wrong code, as where nothing was mailed) and the send does not count; the failure is logged
 * without the message, which holds the code.
 */
async function deliver(
  ctx: Context,
  message: MailMessage,
  ottID: string | number,
  sendID: string | number,
): Promise<void> {
  try {
    await ctx.mailer.send(message);
  } catch (error) {
    ctx.log.error({ mailError: describeMailError(error) }, 'could not send an e-mail code');
    try {
      await ottsDb.voidOtt(ctx.db, ottID, randomBytes(32).toString('base64'));
      await ottsDb.deleteSend(ctx.db, sendID);
    } catch (dbError) {
      ctx.log.error({ err: dbError }, 'could not void the code of a failed mail');
    }
  }
}

/** Whether the address has an account, and whether its signup is complete (key attributes set). */
async function accountOf(ctx: Context, email: string): Promise<{ complete: boolean } | undefined> {
  const row = await ottsDb.accountByEmail(ctx.db, email);
  return row ? { complete: row.keys_user_id !== null } : undefined;
}

/**
 * The mail each purpose gets (docs/protocol.md#e-mail-codes): a code wherever it can lead somewhere
 * (a login, resuming or starting a signup, a new address), with a note when a signup reaches an
 * existing account (the code signs its owner in); a notice instead of a code for a change to a taken
 * address; nothing for a login at an address without an account, or any code for a new address while
 * registration is closed.
 */
function planFor(ctx: Context, purpose: OttPurpose | undefined, account: { complete: boolean } | undefined): SendPlan {
  switch (purpose) {
    case 'change':
      return account ? { mail: 'address taken' } : { mail: 'code' };
    case 'login':
      return account ? { mail: 'code' } : { mail: 'nothing' };
    case 'signup':
      return account?.complete ? { mail: 'code', note: 'existing account' } : { mail: 'code' };
    case undefined:
      return account || !ctx.config.DISABLE_REGISTRATION ? { mail: 'code' } : { mail: 'nothing' };
  }
}

function mailFor(ctx: Context, email: string, plan: SendPlan, ott: string | undefined): MailMessage {
  const lifetime = `It expires in ${ctx.config.OTT_LIFETIME_MINUTES} minutes. If you did not ask for it, ignore this e-mail.`;
  if (plan.mail === 'address taken' || ott === undefined) {
    return {
      to: email,
      subject: 'Your e-mail address is already in use',
      text:
        'Someone asked to move another account to this e-mail address. An account already uses it, so nothing ' +
        'was changed and no code was sent. If this was you, sign in to that account instead. If not, ignore this e-mail.',
    };
  }
  const existing =
    plan.mail === 'code' && plan.note === 'existing account'
      ? 'You asked to sign up, but you already have an account with this address: this code signs you in to it.\n\n'
      : '';
  return {
    to: email,
    subject: `Verification code: ${ott}`,
    text: `${existing}Your verification code is ${ott}.\n\n${lifetime}`,
  };
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
  const reserved = await ottsDb.reserveGuess(ctx.db, email, now, limits.maxOttWrongAttempts);
  const candidates = reserved.filter((row) => row.app === app);
  if (candidates.length === 0) {
    throw plainError((await ottsDb.hasUnexpiredOtt(ctx.db, email, app, now)) ? 429 : 410);
  }
  const expected = Buffer.from(ottHash(ctx, email, app, ott), 'base64');
  // Every candidate is compared, in constant time, whatever the first comparisons gave.
  let match: (typeof candidates)[number] | undefined;
  for (const row of candidates) {
    if (timingSafeEqual(Buffer.from(row.ott_hash, 'base64'), expected)) match ??= row;
  }
  if (!match) throw plainError(401);
  // Deleting is the check: of two concurrent requests with the same code only one gets the row.
  const consumed = await ottsDb.takeOtt(ctx.db, match.id);
  const others = reserved.filter((row) => row.id !== match.id).map((row) => row.id);
  if (others.length > 0) {
    await ottsDb.returnGuess(ctx.db, others);
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

/**
 * Whether codes to addresses without an account are held back: once OTT_SEND_HARD_LIMIT of them were
 * mailed within 5 minutes, the next 10 minutes hold them (stored, not mailed). Codes to accounts go on.
 */
async function newAddressSendsHeld(ctx: Context, now: number): Promise<boolean> {
  const hard = ctx.config.OTT_SEND_HARD_LIMIT;
  if (hard === 0) return false;
  if (await ottsDb.isNewAddressHoldOn(ctx.db, now)) return true;
  if ((await ottsDb.sendsSince(ctx.db, now - SEND_WINDOW, 'new')) < hard) return false;
  await ottsDb.startNewAddressHold(ctx.db, now + NEW_ADDRESS_HOLD);
  return true;
}

/**
 * At most OTT_SENDS_PER_RECIPIENT_PER_HOUR codes per e-mail address and hour, asked by anyone, so
 * that no inbox is flooded; but the first request of each client address in the hour always passes,
 * so that strangers who used up the budget cannot keep the person from getting a code.
 */
async function checkRecipientLimit(ctx: Context, email: string, ip: string): Promise<void> {
  const perHour = ctx.config.OTT_SENDS_PER_RECIPIENT_PER_HOUR;
  if (perHour === 0) return;
  const recipient = hmacSha256B64(ctx.secrets.ottHashKey, `recipient\n${email}`);
  const fromHere = await ctx.limiter.count(`ott-recipient:${recipient}:${ip}`, MICROS_PER_HOUR);
  const fromAll = await ctx.limiter.count(`ott-recipient:${recipient}`, MICROS_PER_HOUR);
  if (fromAll > perHour && fromHere > 1) throw plainError(429);
}

/**
 * Past the soft limit of code requests within 5 minutes (of every kind, mailed or held), each IP may ask
 * one code per 5 minutes.
 */
async function checkPerIpSendLimit(ctx: Context, ip: string): Promise<void> {
  const soft = ctx.config.OTT_SEND_SOFT_LIMIT;
  if (soft === 0) return;
  const since = ctx.clock.nowMicros() - SEND_WINDOW;
  if ((await ottsDb.sendsSince(ctx.db, since)) < soft) return;
  if (await ottsDb.hasSentSince(ctx.db, ip, since)) throw plainError(429);
}

function fixedOtt(ctx: Context, email: string): string | undefined {
  const listed = ctx.config.FIXED_OTTS.find((entry) => entry.email === email);
  if (listed) return listed.code;
  const suffix = ctx.config.FIXED_OTT_DOMAIN_SUFFIX;
  if (suffix && email.endsWith(suffix.toLowerCase())) return ctx.config.FIXED_OTT_DOMAIN_CODE;
  return undefined;
}
