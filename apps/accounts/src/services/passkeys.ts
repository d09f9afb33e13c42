// The accounts app's two jobs (docs/protocol.md#passkeys): managing the passkeys of an account with the
// management token another app handed over, and running the passkey check of a sign-in that another app
// started. The browser's WebAuthn calls go through @simplewebauthn/browser; the payloads sent are the
// protocol's own shapes (base64url without padding, `rawId` = `id`, a missing user handle as null).
import {
  beginPasskeyLoginResponseSchema,
  beginRegistrationResponseSchema,
  listPasskeysResponseSchema,
  passkeyLoginResponseSchema,
  type Passkey,
} from '@ente/protocol/passkeys.ts';
import type { TwoFactorAuthorizationResponse } from '@ente/protocol/two-factor.ts';
import { buildAccountsAppOrigin, buildAppOrigins } from '@ente/shared/config.ts';
import { del, getJSON, patch, post, postJSON } from '@ente/shared/http.ts';

export type { Passkey };

/** The passkeys of the account the token belongs to, in the server's order. */
export async function listPasskeys(token: string): Promise<Passkey[]> {
  const { passkeys } = await getJSON('/passkeys', listPasskeysResponseSchema, { token });
  return passkeys ?? [];
}

export function renamePasskey(token: string, id: string, friendlyName: string): Promise<void> {
  return patch(`/passkeys/${encodeURIComponent(id)}`, undefined, { token, params: { friendlyName } });
}

export function deletePasskey(token: string, id: string): Promise<void> {
  return del(`/passkeys/${encodeURIComponent(id)}`, { token });
}

/**
 * Registers a new passkey named `friendlyName`: the server's options go to the browser, which asks the
 * person for an authenticator; its credential goes back. Throws the browser's error (NotAllowedError when
 * the person cancels, InvalidStateError for an authenticator already registered) or the request's.
 */
export async function addPasskey(token: string, friendlyName: string): Promise<void> {
  const { options, sessionID } = await postJSON(
    '/passkeys/registration/begin',
    undefined,
    beginRegistrationResponseSchema,
    {
      token,
    },
  );
  const { startRegistration } = await import('@simplewebauthn/browser');
  const credential = await startRegistration({ optionsJSON: options.publicKey });
  await post(
    '/passkeys/registration/finish',
    {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        attestationObject: credential.response.attestationObject,
        clientDataJSON: credential.response.clientDataJSON,
        transports: credential.response.transports ?? [],
      },
    },
    { token, params: { friendlyName, sessionID } },
  );
}

/** The state a passkey check keeps between its steps: begin's answer, reused when signing is retried. */
export interface LoginCeremony {
  passkeySessionID: string;
  ceremonySessionID: string;
  publicKey: Record<string, unknown>;
}

/** Starts the check of a sign-in's passkey session (409 SESSION_ALREADY_CLAIMED when it was done). */
export async function beginPasskeyLogin(passkeySessionID: string): Promise<LoginCeremony> {
  const { options, ceremonySessionID } = await postJSON(
    '/users/two-factor/passkeys/begin',
    { sessionID: passkeySessionID },
    beginPasskeyLoginResponseSchema,
  );
  return { passkeySessionID, ceremonySessionID, publicKey: options.publicKey };
}

/**
 * Asks the browser to sign the challenge with one of the account's passkeys, then has the server check it
 * and mint a token for the app of `clientPackage` (the app that started the sign-in).
 */
export async function finishPasskeyLogin(
  ceremony: LoginCeremony,
  clientPackage: string,
): Promise<TwoFactorAuthorizationResponse> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const assertion = await startAuthentication({ optionsJSON: ceremony.publicKey as never });
  return postJSON(
    '/users/two-factor/passkeys/finish',
    {
      id: assertion.id,
      rawId: assertion.id,
      type: 'public-key',
      response: {
        authenticatorData: assertion.response.authenticatorData,
        clientDataJSON: assertion.response.clientDataJSON,
        signature: assertion.response.signature,
        userHandle: assertion.response.userHandle ?? null,
      },
    },
    passkeyLoginResponseSchema,
    {
      clientPackage,
      params: {
        sessionID: ceremony.passkeySessionID,
        ceremonySessionID: ceremony.ceremonySessionID,
        clientPackage,
      },
    },
  );
}

/** Schemes of Ente's desktop and mobile apps, which pass whatever the host (docs/protocol.md#passkeys). */
const appSchemes = ['ente:', 'enteauth:', 'entelocker:', 'ensu:', 'ente-cli:'];

/**
 * Whether the accounts app may send a person to `target` after a check: an http(s) address on one of the
 * family's configured web app origins (or this app's own), or one of Ente's app schemes (`tauri:` only on
 * localhost). Anything else is refused, so that a crafted link cannot hand the token to another site.
 */
export function isAllowedRedirect(target: string, allowedOrigins: readonly string[] = configuredOrigins()): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:')
    return !url.username && !url.password && allowedOrigins.includes(url.origin);
  if (url.protocol === 'tauri:') return url.hostname === 'localhost';
  return appSchemes.includes(url.protocol);
}

function configuredOrigins(): string[] {
  const origins = [...buildAppOrigins, buildAccountsAppOrigin];
  if (typeof window !== 'undefined') origins.push(window.location.origin);
  return origins.map((origin) => {
    try {
      return new URL(origin).origin;
    } catch {
      return origin;
    }
  });
}

/** A client package as apps send it (`io.ente.auth.web`): letters, digits, dots, dashes, underscores. */
export function isClientPackage(value: string): boolean {
  return /^[A-Za-z0-9._-]{1,128}$/.test(value);
}

/**
 * The address the person goes back to: `redirect` with `passkeySessionID` and `response` (base64url
 * without padding of the answer's UTF-8 JSON) set, keeping its other parameters.
 */
export function redirectWithResponse(
  redirect: string,
  passkeySessionID: string,
  answer: TwoFactorAuthorizationResponse,
): string {
  const url = new URL(redirect);
  url.searchParams.set('passkeySessionID', passkeySessionID);
  url.searchParams.set('response', base64urlOfText(JSON.stringify(answer)));
  return url.href;
}

function base64urlOfText(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
