// The SRP attributes given for an address that has no password to sign in with (no account, or an
// account without SRP), so that GET /users/srp/attributes does not tell whether an account exists
// (docs/protocol.md#srp-login, docs/decisions.md#security-second-pass-e-mail-codes-and-account-existence).
// They are HMACs of the address under a key derived from the server secret: the same on every call,
// different between addresses, unpredictable without the secret, and shaped like a real account's
// (museum answers the same way once its limiter trips). An SRP login against them finds no srp_auth row
// for the srpUserID, gets a stand-in session, and fails like a wrong password.
import { createHmac } from 'node:crypto';

import type { SrpAttributesResponse } from '@ente/protocol';

const MiB = 1024 * 1024;

/**
 * The KEK parameters a real account has (memLimit × opsLimit = 4 GiB·ops): our apps start at 256 MiB
 * × 16 and fall back to 128 MiB × 32; Ente's other clients also write 1 GiB × 4.
 */
const kdfChoices = [
  { memLimit: 256 * MiB, opsLimit: 16 },
  { memLimit: 256 * MiB, opsLimit: 16 },
  { memLimit: 256 * MiB, opsLimit: 16 },
  { memLimit: 256 * MiB, opsLimit: 16 },
  { memLimit: 256 * MiB, opsLimit: 16 },
  { memLimit: 256 * MiB, opsLimit: 16 },
  { memLimit: 128 * MiB, opsLimit: 32 },
  { memLimit: 1024 * MiB, opsLimit: 4 },
] as const;

/**
 * Stand-in attributes for `email` (already normalised). `forceEmailMfa` asks for isEmailMFAEnabled, for
 * an existing account without SRP: its clients then ask for an e-mail code, which reaches the person.
 * The flag is a function of the srpUserID (`standInEmailMfa`), so that create-session answers a
 * stand-in srpUserID as it answers a real one with the same flag; a forced flag takes the first of the
 * address's candidate srpUserIDs whose flag is set.
 */
export function standInSrpAttributes(
  key: Uint8Array,
  email: string,
  forceEmailMfa = false,
): SrpAttributesResponse['attributes'] {
  const digest = (purpose: string) => createHmac('sha256', key).update(`${purpose}\n${email}`).digest();
  // The same number of HMACs whatever the outcome, so that the time taken tells nothing.
  let identity: Buffer | undefined;
  for (let candidate = 0; candidate < 64; candidate++) {
    const digested = digest(`srp-user-id ${candidate}`);
    const flagged = standInEmailMfa(key, uuidV4(digested.subarray(0, 16)));
    const fits = !forceEmailMfa || flagged;
    if (fits && identity === undefined) identity = digested;
  }
  // About one address in a million finds no candidate with the flag: it keeps the first.
  identity ??= digest('srp-user-id 0');
  const srpUserID = uuidV4(identity.subarray(0, 16));
  const choice = identity[16] ?? 0;
  const salts = digest('srp-salts');
  const kdf = kdfChoices[choice % kdfChoices.length] ?? kdfChoices[0];
  return {
    srpUserID,
    srpSalt: salts.subarray(0, 16).toString('base64'),
    memLimit: kdf.memLimit,
    opsLimit: kdf.opsLimit,
    kekSalt: salts.subarray(16, 32).toString('base64'),
    isEmailMFAEnabled: forceEmailMfa || standInEmailMfa(key, srpUserID),
  };
}

/** The e-mail MFA flag of a stand-in srpUserID: set for about one in five, as accounts may have it. */
export function standInEmailMfa(key: Uint8Array, srpUserID: string): boolean {
  const digest = createHmac('sha256', key).update(`email-mfa\n${srpUserID.toLowerCase()}`).digest();
  return (digest[0] ?? 0) % 5 === 0;
}

/** A version-4 UUID (RFC 9562 version and variant bits) from 16 bytes. */
function uuidV4(bytes: Buffer): string {
  const b = Buffer.from(bytes);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
