// The passkey check of a sign-in another app started (docs/protocol.md#passkeys): begin, the browser's
// prompt (@simplewebauthn/browser, loaded when signing), finish with a token minted for that app, and
// the address the person goes back to. The payloads are the protocol's own shapes (base64url without
// padding, `rawId` = `id`, a missing user handle as null).
import { beginPasskeyLoginResponseSchema, passkeyLoginResponseSchema } from '@ente/protocol/passkeys.ts';
import type { TwoFactorAuthorizationResponse } from '@ente/protocol/two-factor.ts';
import { postJSON } from '@ente/shared/http.ts';

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
