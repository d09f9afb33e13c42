// The authenticator endpoints (docs/protocol.md#authenticator), through the shared HTTP client with the
// session's token, every answer parsed with the schemas of @ente/protocol. Failures are the HTTP client's
// errors (ApiError, ClientError, ServerError, NetworkError, …); the vault turns them into VaultError.
// `ifUpdatedAt` on PUT and DELETE is this project's compatible extension: a server that does not know it
// ignores it, ours answers 409 when the entity changed since.
import {
  authenticatorKeyResponseSchema,
  entityDiffResponseSchema,
  entitySchema,
  type AuthenticatorKeyResponse,
  type Entity,
  type EntityDiffResponse,
} from '@ente/protocol/authenticator.ts';
import { httpStatusOf } from '@ente/shared/failure.ts';
import { del, getJSON, post, postJSON, put } from '@ente/shared/http.ts';

export type { AuthenticatorKeyResponse, Entity, EntityDiffResponse };

/** A Blob as the entity endpoints carry it (b64). */
export type EncryptedEntityData = { encryptedData: string; header: string };

/** The page size of the diff (the web client's; the server allows 1..5000). */
export const DIFF_PAGE_SIZE = 2500;

/** Lets the vault cancel its requests in flight when it closes. */
export type RemoteOptions = { signal?: AbortSignal };

/** `GET /authenticator/key`; undefined on 404 (no key yet: no codes either). */
export async function getAuthenticatorKey({ signal }: RemoteOptions = {}): Promise<
  AuthenticatorKeyResponse | undefined
> {
  try {
    return await getJSON('/authenticator/key', authenticatorKeyResponseSchema, { auth: true, signal });
  } catch (e) {
    if (httpStatusOf(e) === 404) return undefined;
    throw e;
  }
}

/** `POST /authenticator/key`: `encryptedKey` = Box(authKey) under the masterKey, `header` = its nonce. 409 if one exists. */
export async function postAuthenticatorKey(
  key: { encryptedKey: string; header: string },
  { signal }: RemoteOptions = {},
): Promise<void> {
  await post('/authenticator/key', { encryptedKey: key.encryptedKey, header: key.header }, { auth: true, signal });
}

/** `POST /authenticator/entity`: the new entity (the server chooses its id and updatedAt). */
export function postEntity(data: EncryptedEntityData, { signal }: RemoteOptions = {}): Promise<Entity> {
  const body = { encryptedData: data.encryptedData, header: data.header };
  return postJSON('/authenticator/entity', body, entitySchema, { auth: true, signal });
}

/** `PUT /authenticator/entity` with `ifUpdatedAt`: 409 when the entity changed since. The answer is empty. */
export async function putEntity(
  id: string,
  data: EncryptedEntityData,
  ifUpdatedAt: number,
  { signal }: RemoteOptions = {},
): Promise<void> {
  const body = { id, encryptedData: data.encryptedData, header: data.header, ifUpdatedAt };
  await put('/authenticator/entity', body, { auth: true, signal });
}

/** `DELETE /authenticator/entity?id=&ifUpdatedAt=` (permanent): 409 when the entity changed since. */
export async function deleteEntity(id: string, ifUpdatedAt: number, { signal }: RemoteOptions = {}): Promise<void> {
  await del('/authenticator/entity', { auth: true, params: { id, ifUpdatedAt }, signal });
}

/** `GET /authenticator/entity/diff`: the entities with `updatedAt > sinceTime`, oldest first, at most `limit`. */
export function getEntityDiff(
  sinceTime: number,
  limit: number = DIFF_PAGE_SIZE,
  { signal }: RemoteOptions = {},
): Promise<EntityDiffResponse> {
  const params = { sinceTime, limit };
  return getJSON('/authenticator/entity/diff', entityDiffResponseSchema, { auth: true, params, signal });
}
