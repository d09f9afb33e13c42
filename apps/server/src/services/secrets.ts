// The server's own keys: one that encrypts TOTP secrets at rest, one that keys the hash of 2FA
// recovery secrets, one that keys the hash of e-mail codes, one that derives each SRP session's private
// exponent, one that signs passkey management tokens,
// one that derives the stand-in SRP attributes of addresses without a password, one that signs the
// embedded object store's URLs, one that signs the tokens of password-protected public links.
// All derive from SERVER_SECRET, or, for a local server without it, from a random secret stored once in
// the database (every process on the same database agrees on it).
import { hkdfSync } from 'node:crypto';

import { fromB64, generateKeyB64 } from '@ente/crypto';

import type { Db } from '../db/database.ts';

export interface ServerSecrets {
  totpEncryptionKey: Uint8Array;
  recoveryHashKey: Uint8Array;
  /** Keys the hash of e-mail codes (docs/data-at-rest.md). */
  ottHashKey: Uint8Array;
  /** Derives the SRP server's private exponent b from the session ID, so that b is never stored. */
  srpSessionKey: Uint8Array;
  /** Signs the passkey management tokens (docs/protocol.md#passkeys). */
  accountsTokenKey: Uint8Array;
  /** Derives the stand-in SRP attributes of addresses without a password (services/stand-in-attributes.ts). */
  standInKey: Uint8Array;
  /** Signs the URLs of the embedded object store (adapters/object-store/embedded.ts). */
  objectUrlKey: Uint8Array;
  /** Signs the tokens of password-protected public links (services/link-password-tokens.ts). */
  linkPasswordKey: Uint8Array;
}

export async function loadServerSecrets(db: Db, configured: string | undefined): Promise<ServerSecrets> {
  const master = fromB64(configured ?? (await storedSecret(db)));
  const derive = (info: string) => new Uint8Array(hkdfSync('sha256', master, new Uint8Array(0), info, 32));
  return {
    totpEncryptionKey: derive('ente-server totp-encryption'),
    recoveryHashKey: derive('ente-server recovery-hash'),
    ottHashKey: derive('ente-server ott-hash'),
    srpSessionKey: derive('ente-server srp-session'),
    accountsTokenKey: derive('ente-server accounts-token'),
    standInKey: derive('ente-server srp-stand-in'),
    objectUrlKey: derive('ente-server object-url'),
    linkPasswordKey: derive('ente-server link-password'),
  };
}

async function storedSecret(db: Db): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name: 'master', value: await generateKeyB64() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', 'master')
    .executeTakeFirstOrThrow();
  return row.value;
}
