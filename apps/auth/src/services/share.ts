// Share links (docs/protocol.md#share-links): the future codes of one TOTP or Steam code for a few
// minutes, encrypted as a Blob under a fresh key that travels only in the URL fragment, so the server
// that serves /share never sees it. `shareLink` makes such a link (the vault page), `readShareLink`
// opens one (the public /share page), and `shareStateAt` says what the page shows at a given time.
// The crypto runs in the crypto worker; the OTP library loads only when a link is made, so /share
// does not fetch it.
import { cryptoWorker } from '@ente/crypto/client.ts';
import { Failure } from '@ente/shared/failure.ts';

import type { CodeData } from './types.ts';

/** The durations a link can last, in minutes. */
export const shareDurations = [2, 5, 10] as const;
export type ShareMinutes = (typeof shareDurations)[number];

/** The longest duration the sharing dialog offers. */
export const maxShareMinutes: ShareMinutes = shareDurations.reduce((a, b) => (b > a ? b : a));

/** What a link carries, decoded: the codes from `startTime` (ms), one per `step` seconds. */
export interface SharePayload {
  startTime: number;
  step: number;
  codes: string[];
}

/**
 * Why a link cannot be shown:
 * - `malformed`: a parameter or the key is missing, is not unpadded base64url, or has the wrong length;
 * - `undecryptable`: the data does not open with the key (a damaged or mismatched link);
 * - `badPayload`: it opens, but does not hold the JSON a share link holds;
 * - `tooLong`: it holds more codes than the sharing dialog puts in a link of its longest duration
 *   (`maxShareCodes`). Anyone can make a link on this page's origin, so a link that lasts a day is refused.
 */
export type ShareLinkErrorKind = 'malformed' | 'undecryptable' | 'badPayload' | 'tooLong';

export class ShareLinkError extends Failure<`codes:share.${ShareLinkErrorKind}`> {
  override name = 'ShareLinkError';
  readonly kind: ShareLinkErrorKind;
  constructor(kind: ShareLinkErrorKind, message: string) {
    super(`codes:share.${kind}`, { message });
    this.kind = kind;
  }
}

/** Whether a code can be shared: its codes must depend on the time alone (not HOTP). */
export function canShare(data: Pick<CodeData, 'type'>): boolean {
  return data.type === 'totp' || data.type === 'steam';
}

/**
 * The first code's time and how many codes a link of `minutes` carries. The start is the beginning of
 * the current period (up to one period before `nowMs`), so one code more than ceil(duration / period)
 * makes the link last at least the chosen duration. See: [Note: Share link length]
 */
export function shareWindow(
  period: number,
  minutes: ShareMinutes,
  nowMs: number,
): { startTime: number; count: number } {
  const stepMs = period * 1000;
  return {
    startTime: Math.floor(nowMs / stepMs) * stepMs,
    count: Math.ceil((minutes * 60) / period) + 1,
  };
}

/**
 * The most codes a link of `step`-second codes may hold: what the dialog puts in a link of its longest
 * duration (one more than mobile does, so every link of Ente's apps opens too).
 */
export function maxShareCodes(step: number): number {
  return shareWindow(step, maxShareMinutes, 0).count;
}

// [Note: Share link length]
// Mobile puts ceil(duration / period) codes in a link, starting at the beginning of the current
// period, so a "2 minutes" link made 25 s into a 30 s period ends 25 s early and its last code has no
// next one. We add one code: the link lasts at least what the user chose and at most one period more.
// Readers take any number of codes, so links stay compatible both ways.

/**
 * The JSON text a link encrypts: `{startTime, step, codes}` with the codes comma-separated. `nowMs`
 * should be the server-corrected time (Date.now() + the vault's timeOffsetMs).
 */
export async function sharePayloadText(data: CodeData, minutes: ShareMinutes, nowMs: number): Promise<string> {
  if (!canShare(data)) throw new Error('only TOTP and Steam codes can be shared');
  const { otpAt } = await import('./otp.ts');
  const { startTime, count } = shareWindow(data.period, minutes, nowMs);
  const codes = Array.from({ length: count }, (_, index) => otpAt(data, startTime + index * data.period * 1000));
  return JSON.stringify({ startTime, step: data.period, codes: codes.join(',') });
}

/**
 * A share link: `<origin>/share?data=<ct>&header=<hdr>#<key>`, each part unpadded base64url, where
 * ct/hdr is a Blob of the payload's UTF-8 under a fresh 32-byte key.
 */
export async function shareLink(data: CodeData, minutes: ShareMinutes, nowMs: number, origin: string): Promise<string> {
  const text = await sharePayloadText(data, minutes, nowMs);
  const crypto = await cryptoWorker();
  const key = await crypto.generateKey();
  const blob = await crypto.encryptBlobText(text, key);
  const query = `data=${b64UrlNoPadOf(blob.encryptedData)}&header=${b64UrlNoPadOf(blob.header)}`;
  return `${origin.replace(/\/+$/, '')}/share?${query}#${b64UrlNoPadOf(key)}`;
}

/** Byte lengths a link's parts must have: a secretstream header, a key, and at least a tag. */
const headerBytes = 24;
const keyBytes = 32;
const minDataBytes = 17;

/** The parts of a share link, as the crypto API takes them (b64), checked for form; throws `malformed`. */
export function shareLinkParts(url: string | URL): { encryptedData: string; header: string; key: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ShareLinkError('malformed', 'not a URL');
  }
  const data = parsed.searchParams.get('data');
  const header = parsed.searchParams.get('header');
  const key = parsed.hash.replace(/^#/, '');
  if (!data || !header || !key) throw new ShareLinkError('malformed', 'the link lacks its data, header or key');
  return {
    encryptedData: b64OfUrlPart(data, 'data', (n) => n >= minDataBytes),
    header: b64OfUrlPart(header, 'header', (n) => n === headerBytes),
    key: b64OfUrlPart(key, 'key', (n) => n === keyBytes),
  };
}

/**
 * Opens a share link: its codes, or a `ShareLinkError` saying why not. Failures of the crypto worker
 * itself (it could not start) are thrown as they are.
 */
export async function readShareLink(url: string | URL): Promise<SharePayload> {
  const { encryptedData, header, key } = shareLinkParts(url);
  const crypto = await cryptoWorker();
  let text: string;
  try {
    text = await crypto.decryptBlobText({ encryptedData, header }, key);
  } catch (e) {
    if (e instanceof Error && e.name === 'DecryptionError') {
      throw new ShareLinkError('undecryptable', 'the data does not open with the key');
    }
    throw e;
  }
  return parseSharePayload(text);
}

/** Reads the decrypted JSON; throws `badPayload` unless it is `{startTime, step, codes}` as mobile writes it. */
export function parseSharePayload(text: string): SharePayload {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ShareLinkError('badPayload', 'the payload is not JSON');
  }
  if (typeof json !== 'object' || json === null) throw new ShareLinkError('badPayload', 'the payload is not an object');
  const { startTime, step, codes } = json as Record<string, unknown>;
  if (typeof startTime !== 'number' || !Number.isSafeInteger(startTime) || startTime < 0) {
    throw new ShareLinkError('badPayload', 'startTime is not a time in ms');
  }
  if (typeof step !== 'number' || !Number.isSafeInteger(step) || step < 1 || step > maxStepSeconds) {
    throw new ShareLinkError('badPayload', 'step is not a period in seconds');
  }
  if (typeof codes !== 'string') throw new ShareLinkError('badPayload', 'codes is not a string');
  const list = codes.split(',');
  if (list.length > maxCodes || !list.every((code) => codePattern.test(code))) {
    throw new ShareLinkError('badPayload', 'codes is not a list of codes');
  }
  if (list.length > maxShareCodes(step)) {
    throw new ShareLinkError('tooLong', 'the link lasts longer than the sharing dialog makes links');
  }
  return { startTime, step, codes: list };
}

/** Bounds that no real link comes near (a day-long period, a day of 1-second codes). */
const maxStepSeconds = 86_400;
const maxCodes = 86_400;
/** A code: digits (TOTP) or letters (Steam), up to the 10 digits a TOTP code may have. */
const codePattern = /^[0-9A-Za-z]{1,10}$/;

/** What /share shows at a time. */
export type ShareState =
  /** The link's first code lies in the future: the clock of this device or of the sender is off. */
  | { kind: 'early' }
  /** After the last code. */
  | { kind: 'expired' }
  | {
      kind: 'active';
      current: string;
      /** The code after `current`, unless `current` is the last. */
      next: string | undefined;
      /** ms until `current` changes. */
      remainingMs: number;
      /** ms until the link's last code ends. */
      expiresInMs: number;
    };

/** The state at `nowMs`: codes[floor((now − startTime) / 1000 / step)] and the one after it. */
export function shareStateAt(payload: SharePayload, nowMs: number): ShareState {
  const elapsed = nowMs - payload.startTime;
  if (elapsed < 0) return { kind: 'early' };
  const stepMs = payload.step * 1000;
  const index = Math.floor(elapsed / stepMs);
  const current = payload.codes[index];
  if (current === undefined) return { kind: 'expired' };
  return {
    kind: 'active',
    current,
    next: payload.codes[index + 1],
    remainingMs: (index + 1) * stepMs - elapsed,
    expiresInMs: payload.codes.length * stepMs - elapsed,
  };
}

const b64UrlNoPad = /^[A-Za-z0-9_-]*$/;

/** Standard padded base64 of an unpadded base64url part, checked for form and decoded length. */
function b64OfUrlPart(value: string, what: string, lengthOK: (bytes: number) => boolean): string {
  if (!b64UrlNoPad.test(value) || value.length % 4 === 1) {
    throw new ShareLinkError('malformed', `the ${what} is not unpadded base64url`);
  }
  if (!lengthOK(Math.floor((value.length * 3) / 4))) {
    throw new ShareLinkError('malformed', `the ${what} has the wrong length`);
  }
  const b64 = value.replace(/-/g, '+').replace(/_/g, '/');
  return b64 + '='.repeat((4 - (b64.length % 4)) % 4);
}

/** Unpadded base64url of a standard base64 string. */
function b64UrlNoPadOf(b64: string): string {
  return b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
