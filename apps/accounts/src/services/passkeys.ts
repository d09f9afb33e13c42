// The accounts app's passkey management (docs/protocol.md#passkeys) with the management token another app
// handed over: list, rename, delete, and registration, whose browser call goes through
// @simplewebauthn/browser (loaded when a passkey is added); the payload sent is the protocol's own shape
// (base64url without padding, `rawId` = `id`).
import { beginRegistrationResponseSchema, listPasskeysResponseSchema, type Passkey } from '@ente/protocol/passkeys.ts';
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
