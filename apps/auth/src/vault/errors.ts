// The vault's failures: each a VaultError carrying the `codes` i18n key (section `vault`) that explains
// it, and `toVaultError`, which maps anything a request, the crypto worker or the storage threw to one.
import { DecryptionError } from '@ente/crypto/errors.ts';
import { Failure, httpStatusOf } from '@ente/shared/failure.ts';
import { ApiError, NetworkError, ResponseShapeError, ServerError } from '@ente/shared/http.ts';
import { TokenMissingError } from '@ente/shared/storage/user.ts';

import type { CodeData, VaultItem } from '../services/types.ts';

/** The `codes` i18n keys of the vault's failures (section `vault`). */
export type VaultErrorKey =
  | 'vault.offline'
  | 'vault.serverError'
  | 'vault.requestFailed'
  | 'vault.quotaReached'
  | 'vault.tooManyChanges'
  | 'vault.sessionExpired'
  | 'vault.notSignedIn'
  | 'vault.locked'
  | 'vault.keyMissing'
  | 'vault.conflict'
  | 'vault.deleteConflict'
  | 'vault.decryptionFailed'
  | 'vault.notACode'
  | 'vault.unknown';

export interface VaultConflict {
  id: string;
  /** What the user tried to write. */
  mine: CodeData;
  /** The server's newer version (after the pull), or 'deleted'. */
  theirs: VaultItem | 'deleted';
}

/** A failure of the vault, with the `codes` i18n key that explains it (a Failure of @ente/shared/failure.ts). */
export class VaultError extends Failure<`codes:${VaultErrorKey}`> {
  constructor(
    readonly errorKey: VaultErrorKey,
    options?: { cause?: unknown },
  ) {
    super(`codes:${errorKey}`, { cause: options?.cause, message: `vault: ${errorKey}` });
    this.name = 'VaultError';
  }
}

/** A write that met a newer version on the server; the conflict is also in the snapshot until resolved. */
export class VaultConflictError extends VaultError {
  constructor(readonly conflict: VaultConflict) {
    super('vault.conflict');
    this.name = 'VaultConflictError';
  }
}

/** The VaultError that explains a failure. */
export function toVaultError(e: unknown): VaultError {
  if (e instanceof VaultError) return e;
  const cause = { cause: e };
  if (e instanceof NetworkError) return new VaultError('vault.offline', cause);
  if (e instanceof TokenMissingError) return new VaultError('vault.notSignedIn', cause);
  if (e instanceof DecryptionError) return new VaultError('vault.decryptionFailed', cause);
  if (e instanceof ServerError || e instanceof ResponseShapeError) return new VaultError('vault.serverError', cause);
  const status = httpStatusOf(e);
  if (status === 401) return new VaultError('vault.sessionExpired', cause);
  // The account's quota on the server (docs/protocol.md#authenticator), and its hourly limit on changes.
  if (e instanceof ApiError && e.errCode === 'ENTITY_LIMIT_REACHED') return new VaultError('vault.quotaReached', cause);
  if (status === 429) return new VaultError('vault.tooManyChanges', cause);
  if (status !== undefined) return new VaultError(status >= 500 ? 'vault.serverError' : 'vault.requestFailed', cause);
  return new VaultError('vault.unknown', cause);
}
