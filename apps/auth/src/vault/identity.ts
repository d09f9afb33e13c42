// Who opens the vault: the signed-in user's id (the kv database, the authoritative copy) and this tab's
// masterKey (session storage, opened in the crypto worker). Its own small module, so that vault-start can
// begin both reads before the vault's code has arrived.
import { masterKeyOfThisTab } from '@ente/accounts/services/storage.ts';
import { savedUserID } from '@ente/shared/storage/user.ts';

/** The user's id and this tab's masterKey, either undefined when absent. */
export type Identity = [userID: number | undefined, masterKey: string | undefined];

export function readIdentity(): Promise<Identity> {
  return Promise.all([savedUserID(), masterKeyOfThisTab()]);
}
