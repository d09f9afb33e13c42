// The errors of @ente/crypto, in a module that imports nothing: pages check `error.name` (or
// `instanceof`) without loading libsodium, and the worker boundary (worker-errors.ts) rebuilds them
// on the main thread from their name, message and `reason`.

/** A Box, Blob or sealed box did not open: a wrong key or tampered data. */
export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

/** An SRP public value outside 1..N-1 or of the wrong length (docs/protocol.md#srp-parameters). */
export class SrpError extends Error {
  override name = 'SrpError';
}

/** Argon2id could not allocate even the smallest memory the sensitive derivation allows. */
export class InsufficientMemoryError extends Error {
  override name = 'InsufficientMemoryError';
  constructor(options?: { cause?: unknown }) {
    super('insufficient memory for key derivation', options);
  }
}

/** Why stored Argon2id parameters were refused before running (docs/protocol.md#password-kdf). */
export type KdfParamsReason = 'opsLimit' | 'memLimit' | 'salt';

/** Argon2id parameters outside the bounds a client accepts (docs/protocol.md#password-kdf). */
export class KdfParamsError extends Error {
  override name = 'KdfParamsError';
  readonly reason: KdfParamsReason;
  constructor(reason: KdfParamsReason, message?: string) {
    super(message ?? `unsupported key derivation parameters (${reason})`);
    this.reason = reason;
  }
}

/** Why a typed recovery key was refused (docs/protocol.md#recovery-key). */
export type RecoveryKeyReason = 'empty' | 'wordCount' | 'unknownWord' | 'checksum' | 'invalidHex';

export const recoveryKeyReasons: readonly RecoveryKeyReason[] = [
  'empty',
  'wordCount',
  'unknownWord',
  'checksum',
  'invalidHex',
];

/**
 * A recovery key that is not 24 valid words nor 64 hex characters. `word` names the first word not
 * in the list (reason 'unknownWord'); `wordCount` is how many words there were.
 */
export class RecoveryKeyError extends Error {
  override name = 'RecoveryKeyError';
  readonly reason: RecoveryKeyReason;
  readonly word?: string;
  readonly wordCount?: number;
  constructor(reason: RecoveryKeyReason, details: { word?: string; wordCount?: number; message?: string } = {}) {
    super(details.message ?? `invalid recovery key (${reason})`);
    this.reason = reason;
    if (details.word !== undefined) this.word = details.word;
    if (details.wordCount !== undefined) this.wordCount = details.wordCount;
  }
}

/** A strict decoder met a malformed string. */
export class InvalidEncodingError extends Error {
  override name = 'InvalidEncodingError';
}

/** An SRP handle that is unknown, already used up, or expired (srpClientProof / srpClientVerify). */
export class SrpSessionError extends Error {
  override name = 'SrpSessionError';
}

/** Every error class of this package, by name (the worker boundary rebuilds them from it). */
export const cryptoErrorClasses = {
  DecryptionError,
  SrpError,
  InsufficientMemoryError,
  KdfParamsError,
  RecoveryKeyError,
  InvalidEncodingError,
  SrpSessionError,
} as const;

export type CryptoErrorName = keyof typeof cryptoErrorClasses;

/** True when `error` is one of this package's errors (by name, so it also holds across realms). */
export function isCryptoError(error: unknown): error is InstanceType<(typeof cryptoErrorClasses)[CryptoErrorName]> {
  return error instanceof Error && Object.hasOwn(cryptoErrorClasses, error.name);
}
