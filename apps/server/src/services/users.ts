// Users and their key attributes, as several route modules and services read or create them.
import type { Selectable } from 'kysely';

import type { KeyAttributesResponse } from '@ente/protocol';

import type { KeyAttributesTable } from '../db/schema.ts';
import { plainError } from '../http/errors.ts';
import type { Context } from './context.ts';

/** The user's key attributes in wire form (unset recovery fields and kekHash as ""), or undefined. */
export async function keyAttributesOf(ctx: Context, userID: number): Promise<KeyAttributesResponse | undefined> {
  const row = await ctx.db.selectFrom('key_attributes').selectAll().where('user_id', '=', userID).executeTakeFirst();
  return row ? keyAttributesToWire(row) : undefined;
}

export function keyAttributesToWire(row: Selectable<KeyAttributesTable>): KeyAttributesResponse {
  return {
    kekSalt: row.kek_salt,
    opsLimit: Number(row.ops_limit),
    memLimit: Number(row.mem_limit),
    encryptedKey: row.encrypted_key,
    keyDecryptionNonce: row.key_decryption_nonce,
    publicKey: row.public_key,
    encryptedSecretKey: row.encrypted_secret_key,
    secretKeyDecryptionNonce: row.secret_key_decryption_nonce,
    masterKeyEncryptedWithRecoveryKey: row.master_key_encrypted_with_recovery_key ?? '',
    masterKeyDecryptionNonce: row.master_key_decryption_nonce ?? '',
    recoveryKeyEncryptedWithMasterKey: row.recovery_key_encrypted_with_master_key ?? '',
    recoveryKeyDecryptionNonce: row.recovery_key_decryption_nonce ?? '',
    kekHash: row.kek_hash,
  };
}

/** Looks a user up by normalised e-mail. */
export async function userByEmail(ctx: Context, email: string) {
  return ctx.db
    .selectFrom('users')
    .select(['user_id', 'email', 'is_email_mfa_enabled', 'is_two_factor_enabled'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function hasKeyAttributes(ctx: Context, userID: number): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('key_attributes')
    .select('user_id')
    .where('user_id', '=', userID)
    .executeTakeFirst();
  return row !== undefined;
}

/** The user with this e-mail, created (unless registration is disabled: 403) when there is none. */
export async function findOrCreateUser(ctx: Context, email: string, source: string | undefined): Promise<number> {
  const existing = await userByEmail(ctx, email);
  if (existing) return Number(existing.user_id);
  if (ctx.config.DISABLE_REGISTRATION) throw plainError(403);
  const created = await ctx.db
    .insertInto('users')
    .values({ email, source: source ?? null, created_at: ctx.clock.nowMicros() })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .returning('user_id')
    .executeTakeFirst();
  if (created) return Number(created.user_id);
  // Created by a concurrent request a moment ago.
  const raced = await userByEmail(ctx, email);
  if (!raced) throw new Error('user vanished while being created');
  return Number(raced.user_id);
}
