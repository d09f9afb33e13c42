// KeyAttributes (docs/protocol.md#key-attributes): identical in requests, responses and local storage.
import * as z from 'zod/mini';

import { b64, text } from './common.ts';
import { limits } from './limits.ts';

const keyBox = b64(48); // a 32-byte key in a secretbox: 32 + 16 MAC
const nonce = b64(24);

/** The attributes a client uploads (PUT /users/attributes); the recovery fields may be absent or "". */
export const keyAttributesSchema = z.object({
  kekSalt: b64(16),
  opsLimit: z.int().check(z.positive(), z.maximum(limits.maxOpsLimit)),
  memLimit: z.int().check(z.positive(), z.maximum(limits.maxMemLimit)),
  encryptedKey: keyBox,
  keyDecryptionNonce: nonce,
  publicKey: b64(32),
  encryptedSecretKey: keyBox,
  secretKeyDecryptionNonce: nonce,
  masterKeyEncryptedWithRecoveryKey: z.optional(z.union([keyBox, z.literal('')])),
  masterKeyDecryptionNonce: z.optional(z.union([nonce, z.literal('')])),
  recoveryKeyEncryptedWithMasterKey: z.optional(z.union([keyBox, z.literal('')])),
  recoveryKeyDecryptionNonce: z.optional(z.union([nonce, z.literal('')])),
  kekHash: z.optional(text(512)),
});
export type KeyAttributes = z.infer<typeof keyAttributesSchema>;

/** The server always answers with every field; unset recovery fields and kekHash are "". */
export const keyAttributesResponseSchema = z.object({
  kekSalt: z.string(),
  opsLimit: z.int(),
  memLimit: z.int(),
  encryptedKey: z.string(),
  keyDecryptionNonce: z.string(),
  publicKey: z.string(),
  encryptedSecretKey: z.string(),
  secretKeyDecryptionNonce: z.string(),
  masterKeyEncryptedWithRecoveryKey: z.nullish(z.string()),
  masterKeyDecryptionNonce: z.nullish(z.string()),
  recoveryKeyEncryptedWithMasterKey: z.nullish(z.string()),
  recoveryKeyDecryptionNonce: z.nullish(z.string()),
  kekHash: z.nullish(z.string()),
});
export type KeyAttributesResponse = z.infer<typeof keyAttributesResponseSchema>;

/** PUT /users/attributes. */
export const setKeyAttributesRequestSchema = z.object({ keyAttributes: keyAttributesSchema });
export type SetKeyAttributesRequest = z.infer<typeof setKeyAttributesRequestSchema>;

/** PUT /users/recovery-key. */
export const setRecoveryKeyRequestSchema = z.object({
  masterKeyEncryptedWithRecoveryKey: keyBox,
  masterKeyDecryptionNonce: nonce,
  recoveryKeyEncryptedWithMasterKey: keyBox,
  recoveryKeyDecryptionNonce: nonce,
});
export type SetRecoveryKeyRequest = z.infer<typeof setRecoveryKeyRequestSchema>;

/** The subset of attributes a password change replaces (POST /users/srp/update `updatedKeyAttr`). */
export const updatedKeyAttributesSchema = z.pick(keyAttributesSchema, {
  kekSalt: true,
  encryptedKey: true,
  keyDecryptionNonce: true,
  opsLimit: true,
  memLimit: true,
});
export type UpdatedKeyAttributes = z.infer<typeof updatedKeyAttributesSchema>;
