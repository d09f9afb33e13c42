// Changes to the signed-in user's record (local storage `user`, docs/protocol.md#browser-storage) that
// several steps make, kept apart from the flows so that a page needing only these (/passkeys/finish)
// does not load the flows and the crypto client with them.
import type { TwoFactorAuthorizationResponse } from '@ente/protocol/two-factor.ts';
import { saveKeyAttributes, saveOriginalKeyAttributes } from '@ente/shared/storage/account-storage.ts';
import { savedUser, saveUser, type UserRecord } from '@ente/shared/storage/local-storage.ts';

/** Merges `fields` into `user` and drops the `without` fields (also from kv). */
export async function saveUserWithout(fields: Partial<UserRecord>, without: (keyof UserRecord)[]): Promise<void> {
  const merged: UserRecord = { ...savedUser(), ...fields };
  const kept = Object.entries(merged).filter(([field]) => !without.includes(field));
  await saveUser(Object.fromEntries(kept));
}

/**
 * The answer of a second factor (TOTP verify, recovery, a passkey check): the new `encryptedToken` and
 * `id` in `user` (the old token and the listed fields removed, also from kv), the key attributes saved.
 */
export async function acceptTwoFactorAnswer(
  answer: TwoFactorAuthorizationResponse,
  without: (keyof UserRecord)[],
): Promise<void> {
  await saveUserWithout({ id: answer.id, encryptedToken: answer.encryptedToken }, without);
  saveKeyAttributes(answer.keyAttributes);
  saveOriginalKeyAttributes(answer.keyAttributes);
}
