// The token a viewer of a password-protected public link gets from POST /public-collection/verify-password
// and sends back as X-Auth-Access-Token-JWT (docs/protocol.md#public-links): a JWT signed with HS256 under a
// server key, valid 365 days, naming the link and a digest of the password hash it was given for. A token
// of another link, or one from before the password changed, no longer matches; any change to it breaks
// the signature. The clients only store and send it.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import { MICROS_PER_DAY, MICROS_PER_SECOND } from '../lib/clock.ts';

export const LINK_TOKEN_LIFETIME_MICROS = 365 * MICROS_PER_DAY;

const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

interface LinkClaims {
  /** The link's id. */
  sub: string;
  /** A digest of the password hash the token was issued for. */
  pwd: string;
  /** Seconds since the epoch (JWT's unit). */
  exp: number;
}

export function signLinkToken(key: Uint8Array, link: { id: number; passHash: string }, nowMicros: number): string {
  const claims: LinkClaims = {
    sub: String(link.id),
    pwd: passwordDigest(link.passHash),
    exp: Math.floor((nowMicros + LINK_TOKEN_LIFETIME_MICROS) / MICROS_PER_SECOND),
  };
  const body = `${header}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${signature(key, body)}`;
}

/** Whether `token` is one we signed for this link and its current password, not expired. */
export function isValidLinkToken(
  key: Uint8Array,
  token: string,
  link: { id: number; passHash: string },
  nowMicros: number,
): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const [head, payload, mac] = parts as [string, string, string];
  if (head !== header || !sameText(mac, signature(key, `${head}.${payload}`))) return false;
  let claims: Partial<LinkClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<LinkClaims>;
  } catch {
    return false;
  }
  return (
    claims.sub === String(link.id) &&
    typeof claims.pwd === 'string' &&
    sameText(claims.pwd, passwordDigest(link.passHash)) &&
    typeof claims.exp === 'number' &&
    claims.exp * MICROS_PER_SECOND > nowMicros
  );
}

/** Compares two strings in time that does not depend on where they differ (their digests have one length). */
export function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

function passwordDigest(passHash: string): string {
  return createHash('sha256').update(`ente-server link-password\0${passHash}`, 'utf8').digest('base64url').slice(0, 22);
}

function signature(key: Uint8Array, body: string): string {
  return createHmac('sha256', key).update(body, 'ascii').digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
