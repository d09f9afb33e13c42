// The one-time codes of a code (docs/protocol.md, "OTP generation"): TOTP and HOTP through the `otpauth`
// library, Steam's five letters from the same HMAC truncation, and what the cards show around them (the
// code grouped for reading, the share of the period left).
// See: [Note: Generating codes fast]
//
// [Note: Generating codes fast]
// The list regenerates the codes of every visible card at each period boundary, and the benchmark asks
// for 10,000 codes (one HMAC costs about 6 µs with the library's JavaScript hashes). Two caches, both
// bounded and both emptied by `forgetSecrets` when the vault locks or closes: the decoded secret per
// Base32 string, and the code per (secret, algorithm, digits, type, counter), so that asking again
// within a period costs a lookup, and the "next" code of one period is the "current" of the following.
import { HOTP, Secret } from 'otpauth';

import type { CodeData, OTPAlgorithm } from './types.ts';

export { formatOTP, remainingFraction } from './otp-format.ts';

/** What generating needs of a code. */
export type OTPParams = Pick<CodeData, 'type' | 'secret' | 'algorithm' | 'digits' | 'period' | 'counter'>;

/** Steam's 26 symbols (no vowels, no look-alike digits). */
export const steamAlphabet = '23456789BCDFGHJKMNPQRTVWXY';

const algorithmNames: Record<OTPAlgorithm, string> = { sha1: 'SHA1', sha256: 'SHA256', sha512: 'SHA512' };
const maxCachedSecrets = 20_000;
const secrets = new Map<string, Secret>();
const maxCachedCodes = 50_000;
const codes = new Map<string, string>();

function secretOf(base32: string): Secret {
  let secret = secrets.get(base32);
  if (secret === undefined) {
    if (secrets.size >= maxCachedSecrets) secrets.clear();
    secret = Secret.fromBase32(base32);
    secrets.set(base32, secret);
  }
  return secret;
}

/** Drops every decoded secret kept for speed (call when the vault locks or closes). */
export function forgetSecrets(): void {
  secrets.clear();
  codes.clear();
}

function hotp(code: OTPParams, counter: number, digits: number, algorithm: OTPAlgorithm): string {
  return HOTP.generate({ secret: secretOf(code.secret), algorithm: algorithmNames[algorithm], digits, counter });
}

/** The moving factor at `timeMs`: the TOTP/Steam time step, or the HOTP counter. */
function counterAt(code: OTPParams, timeMs: number): number {
  return code.type === 'hotp' ? code.counter : Math.floor(timeMs / (stepSeconds(code) * 1000));
}

function stepSeconds(code: OTPParams): number {
  return code.type === 'steam' ? 30 : code.period;
}

function codeForCounter(code: OTPParams, counter: number): string {
  const key = `${code.type} ${code.algorithm} ${code.digits} ${counter} ${code.secret}`;
  let value = codes.get(key);
  if (value === undefined) {
    if (codes.size >= maxCachedCodes) codes.clear();
    value = generate(code, counter);
    codes.set(key, value);
  }
  return value;
}

function generate(code: OTPParams, counter: number): string {
  if (code.type !== 'steam') return hotp(code, counter, code.digits, code.algorithm);
  // With 10 digits the modulus exceeds 2^31, so the library hands back the whole 31-bit truncation.
  let value = Number(hotp(code, counter, 10, 'sha1'));
  let out = '';
  for (let i = 0; i < 5; i++) {
    out += steamAlphabet.charAt(value % steamAlphabet.length);
    value = Math.floor(value / steamAlphabet.length);
  }
  return out;
}

/** The code shown at `timeMs` (ms since the epoch; HOTP ignores it and uses the counter). */
export function otpAt(code: OTPParams, timeMs: number): string {
  return codeForCounter(code, counterAt(code, timeMs));
}

/** The current code and the next one (TOTP/Steam: one period later; HOTP: counter + 1). */
export function codesAt(code: OTPParams, timeMs: number): { current: string; next: string } {
  const counter = counterAt(code, timeMs);
  return { current: codeForCounter(code, counter), next: codeForCounter(code, counter + 1) };
}

/** When the code of `timeMs` changes (ms since the epoch); Infinity for HOTP. */
export function nextChangeAt(code: OTPParams, timeMs: number): number {
  if (code.type === 'hotp') return Infinity;
  const step = stepSeconds(code) * 1000;
  return (Math.floor(timeMs / step) + 1) * step;
}
