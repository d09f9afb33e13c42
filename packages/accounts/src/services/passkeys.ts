// A passkey as the second factor at sign-in (docs/protocol.md#passkeys), on the side of the app that
// signs in: the person is sent to the accounts app's /passkeys/verify with the passkey session, and
// comes back to this app's /passkeys/finish with the sealed token; /passkeys/recover signs in with the
// recovery key instead (two-factor.ts).
import { twoFactorAuthorizationResponseSchema } from '@ente/protocol/two-factor.ts';
import { clientPackage } from '@ente/shared/app-name.ts';
import {
  removeInflightPasskeySessionID,
  savedInflightPasskeySessionID,
  savedPasskeyAccountsUrl,
  saveInflightPasskeySessionID,
  savePasskeyAccountsUrl,
} from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsError } from './errors.ts';
import { takeRedirect } from './flow-state.ts';
import { acceptTwoFactorAnswer } from './user-record.ts';

/**
 * Keeps the accounts app the server named for this sign-in (an http(s) URL; anything else is refused
 * rather than followed).
 */
export function keepPasskeyAccountsUrl(accountsUrl: string): void {
  let url: URL;
  try {
    url = new URL(accountsUrl);
  } catch {
    throw new AccountsError('server');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AccountsError('server');
  savePasskeyAccountsUrl(url.href.replace(/\/+$/, ''));
}

/**
 * The address of the accounts app's check for the passkey session in `user`, remembered as the one this
 * tab waits for. `origin` is this app's own (where the accounts app sends the person back).
 */
export function passkeyVerificationURL(origin: string = window.location.origin): string {
  const passkeySessionID = savedUser()?.passkeySessionID;
  const accountsUrl = savedPasskeyAccountsUrl();
  if (!passkeySessionID || !accountsUrl) throw new AccountsError('sessionExpired');
  saveInflightPasskeySessionID(passkeySessionID);
  const query = new URLSearchParams({
    clientPackage: clientPackage(),
    passkeySessionID,
    redirect: `${origin}/passkeys/finish`,
    recover: `${origin}/passkeys/recover`,
  });
  return `${accountsUrl}/passkeys/verify?${query.toString()}`;
}

/** What /passkeys/finish makes of its query. */
export type PasskeyFinish = { route: string } | { problem: 'missing' | 'otherSession' | 'invalid' };

/**
 * The accounts app's answer: `response` is the base64url (no padding) UTF-8 JSON of the token answer,
 * for `passkeySessionID`, which must be the session this tab sent. The token is kept as after a TOTP
 * code; → `/credentials` (or the remembered redirect), where a KEK stashed by an SRP login is used.
 */
export async function finishPasskeyVerification(
  passkeySessionID: string | undefined,
  response: string | undefined,
): Promise<PasskeyFinish> {
  if (!passkeySessionID || !response) return { problem: 'missing' };
  if (passkeySessionID !== savedInflightPasskeySessionID()) return { problem: 'otherSession' };
  let answer;
  try {
    answer = twoFactorAuthorizationResponseSchema.parse(JSON.parse(base64urlText(response)));
  } catch {
    return { problem: 'invalid' };
  }
  removeInflightPasskeySessionID();
  await acceptTwoFactorAnswer(answer, ['token', 'twoFactorSessionID', 'isTwoFactorEnabled', 'passkeySessionID']);
  return { route: takeRedirect() ?? '/credentials' };
}

/** The UTF-8 text of base64url with or without padding; throws on anything else. */
function base64urlText(value: string): string {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) throw new Error('not base64url');
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
