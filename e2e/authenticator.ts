// Codes written and read over HTTP with the protocol's encryption (docs/protocol.md#authenticator-data),
// not through our pages: the authenticator key is a secretbox under the masterKey (header = nonce),
// and each entity is a one-message secretstream of the JSON string literal of its otpauth:// URI. The
// browser tests use these to fill an account before a test that is not about adding codes, and to
// read back exactly what the page wrote.
import { cryptoAPI } from '@ente/crypto/api.ts';
import { decryptBlobBytes, encryptBlobB64 } from '@ente/crypto/blob.ts';
import type { AuthenticatorKeyResponse, Entity, EntityDiffResponse } from '@ente/protocol';

import { api, HttpError, type ApiAccount } from './api.ts';
import type { AppName } from './stack.ts';

const app: AppName = 'auth';

/** The account's authenticator key (b64), created and uploaded first if the account has none. */
export async function authenticatorKey(account: ApiAccount, token: string): Promise<string> {
  try {
    const key = await api<AuthenticatorKeyResponse>(app, 'GET', '/authenticator/key', { token });
    return await cryptoAPI.decryptBox(key.encryptedKey, key.header, account.masterKey);
  } catch (e) {
    if (!(e instanceof HttpError) || e.status !== 404) throw e;
  }
  const key = await cryptoAPI.generateKey();
  const box = await cryptoAPI.encryptBox(key, account.masterKey);
  await api(app, 'POST', '/authenticator/key', { body: { encryptedKey: box.encryptedData, header: box.nonce }, token });
  return key;
}

/** Adds one code per URI, as another Ente client would; returns the entities. */
export async function addCodes(account: ApiAccount, token: string, uris: readonly string[]): Promise<Entity[]> {
  const key = await authenticatorKey(account, token);
  const entities: Entity[] = [];
  for (const uri of uris) {
    const blob = await encryptBlobB64(new TextEncoder().encode(JSON.stringify(uri)), key);
    entities.push(await api<Entity>(app, 'POST', '/authenticator/entity', { body: blob, token }));
  }
  return entities;
}

/** Every live code of the account: its entity id, updatedAt and decrypted URI. */
export async function readCodes(
  account: ApiAccount,
  token: string,
): Promise<{ id: string; updatedAt: number; uri: string }[]> {
  const key = await authenticatorKey(account, token);
  const live = new Map<string, Entity>();
  let sinceTime = 0;
  for (;;) {
    const { diff } = await api<EntityDiffResponse>(app, 'GET', '/authenticator/entity/diff', {
      query: { sinceTime: String(sinceTime), limit: '2500' },
      token,
    });
    if (diff.length === 0) break;
    for (const entity of diff) {
      if (entity.isDeleted) live.delete(entity.id);
      else live.set(entity.id, entity);
      sinceTime = Math.max(sinceTime, entity.updatedAt);
    }
  }
  const codes = [];
  for (const entity of live.values()) {
    if (entity.encryptedData === null || entity.header === null) continue;
    const bytes = await decryptBlobBytes({ encryptedData: entity.encryptedData, header: entity.header }, key);
    const text: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof text !== 'string') throw new Error(`entity ${entity.id} does not hold a JSON string`);
    codes.push({ id: entity.id, updatedAt: entity.updatedAt, uri: text });
  }
  return codes;
}
