// The requests of the sign-in flows, with their payloads exactly as docs/protocol.md#endpoints gives
// them and every answer parsed with the schemas of @ente/protocol. The flows load this module on first
// use (`import('./remote.ts')`), so the HTTP client and zod stay out of the sign-in pages' first load.
// Failures are the HTTP client's errors; the flows turn them into AccountsError for their step.
import type { KeyAttributes } from '@ente/protocol/key-attributes.ts';
import {
  srpAttributesResponseSchema,
  srpCompleteResponseSchema,
  srpCreateSessionResponseSchema,
  srpSetupResponseSchema,
  type SrpAttributes,
} from '@ente/protocol/srp.ts';
import {
  twoFactorAuthorizationResponseSchema,
  twoFactorRecoverResponseSchema,
  type TwoFactorAuthorizationResponse,
  type TwoFactorRecoverResponse,
  type TwoFactorType,
} from '@ente/protocol/two-factor.ts';
import {
  emailAuthorizationResponseSchema,
  sessionValidityResponseSchema,
  type EmailAuthorizationResponse,
  type OttPurpose,
  type SessionValidityResponse,
} from '@ente/protocol/users.ts';
import { appName } from '@ente/shared/app-name.ts';
import { httpStatusOf } from '@ente/shared/failure.ts';
import { getJSON, post, postJSON, put } from '@ente/shared/http.ts';

export type { EmailAuthorizationResponse, TwoFactorAuthorizationResponse, TwoFactorRecoverResponse };

/**
 * `POST /users/ott`: sends an e-mail code. `purpose` undefined is the "none" purpose of the resend
 * button and the forgot-password page. `client` is "totp" from the auth app, "web" from the others.
 */
export async function sendOtt(email: string, purpose: OttPurpose | undefined): Promise<void> {
  const client = appName() === 'auth' ? 'totp' : 'web';
  await post('/users/ott', purpose ? { email, purpose, client } : { email, client });
}

/** `POST /users/verify-email`; `source` is "web:<referral>" at sign-up only. */
export function verifyEmail(email: string, ott: string, source?: string): Promise<EmailAuthorizationResponse> {
  const body = source === undefined ? { email, ott } : { email, ott, source };
  return postJSON('/users/verify-email', body, emailAuthorizationResponseSchema);
}

/** `GET /users/srp/attributes?email=`: undefined on any 404 (no SRP: use the e-mail code). */
export async function getSrpAttributes(email: string): Promise<SrpAttributes | undefined> {
  try {
    return (await getJSON('/users/srp/attributes', srpAttributesResponseSchema, { params: { email } })).attributes;
  } catch (e) {
    if (httpStatusOf(e) === 404) return undefined;
    throw e;
  }
}

/** `POST /users/srp/create-session`. */
export function createSrpSession(srpUserID: string, srpA: string) {
  return postJSON('/users/srp/create-session', { srpUserID, srpA }, srpCreateSessionResponseSchema);
}

/** `POST /users/srp/verify-session`: the verification answer plus `srpM2`. */
export function verifySrpSession(sessionID: string, srpUserID: string, srpM1: string) {
  return postJSON('/users/srp/verify-session', { sessionID, srpUserID, srpM1 }, emailAuthorizationResponseSchema);
}

/** `PUT /users/attributes` (once, at sign-up). */
export async function putKeyAttributes(keyAttributes: KeyAttributes): Promise<void> {
  await put('/users/attributes', { keyAttributes }, { auth: true });
}

/** `POST /users/srp/setup`. */
export function setUpSrp(body: { srpUserID: string; srpSalt: string; srpVerifier: string; srpA: string }) {
  return postJSON('/users/srp/setup', body, srpSetupResponseSchema, { auth: true });
}

/** `POST /users/srp/complete`. */
export function completeSrp(setupID: string, srpM1: string) {
  return postJSON('/users/srp/complete', { setupID, srpM1 }, srpCompleteResponseSchema, { auth: true });
}

/** `POST /users/two-factor/verify`. */
export function verifyTwoFactor(sessionID: string, code: string): Promise<TwoFactorAuthorizationResponse> {
  return postJSON('/users/two-factor/verify', { code, sessionID }, twoFactorAuthorizationResponseSchema);
}

/** `GET /users/two-factor/recover?twoFactorType=&sessionID=` (the TOTP or the passkey session). */
export function getTwoFactorRecovery(
  sessionID: string,
  twoFactorType: TwoFactorType,
): Promise<TwoFactorRecoverResponse> {
  return getJSON('/users/two-factor/recover', twoFactorRecoverResponseSchema, {
    params: { twoFactorType, sessionID },
  });
}

/** `POST /users/two-factor/remove`. */
export function removeTwoFactor(
  sessionID: string,
  secret: string,
  twoFactorType: TwoFactorType,
): Promise<TwoFactorAuthorizationResponse> {
  return postJSON(
    '/users/two-factor/remove',
    { twoFactorType, sessionID, secret },
    twoFactorAuthorizationResponseSchema,
  );
}

/** `GET /users/session-validity/v2`. */
export function getSessionValidity(): Promise<SessionValidityResponse> {
  return getJSON('/users/session-validity/v2', sessionValidityResponseSchema, { auth: true });
}
