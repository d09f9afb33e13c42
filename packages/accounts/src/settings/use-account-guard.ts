// The guard of the account pages (/change-email, /change-password, /two-factor/setup): a signed-out
// visitor goes to /login; a page that needs the masterKey sends a tab that has not been unlocked yet
// (no `encryptionKey` in session storage, docs/protocol.md#session-storage) to /credentials, which
// comes back here afterwards (the remembered redirect of services/flow-state.ts). Decided
// once, from storage itself, after the first render (the prerender knows nothing of storage).
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';

import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import { rememberRedirect } from '../services/flow-state.ts';

export interface SignedInAccount {
  email: string;
}

export interface UnlockedAccount extends SignedInAccount {
  /** b64, unwrapped from session storage for this page only. */
  masterKey: string;
}

/** The signed-in account once checked (undefined while checking or redirecting). */
export function useAccountGuard(needs: 'signedIn'): SignedInAccount | undefined;
/** The signed-in, unlocked account once checked (undefined while checking or redirecting). */
export function useAccountGuard(needs: 'unlocked'): UnlockedAccount | undefined;
export function useAccountGuard(needs: 'signedIn' | 'unlocked'): SignedInAccount | UnlockedAccount | undefined {
  const router = useRouter();
  const [account, setAccount] = useState<SignedInAccount | UnlockedAccount>();
  // The router object changes while a redirect runs; decide once.
  const decided = useRef(false);

  useEffect(() => {
    if (decided.current) return;
    decided.current = true;
    void (async () => {
      const email = savedUser()?.email;
      if (!isLoggedIn() || !email) {
        await router.replace('/login');
        return;
      }
      if (needs === 'signedIn') {
        setAccount({ email });
        return;
      }
      // The crypto client comes with it: not for a visitor who is only sent to /login.
      const { masterKeyOfThisTab } = await import('../services/storage.ts');
      const masterKey = await masterKeyOfThisTab();
      if (masterKey === undefined) {
        // Back here once the password has unlocked this tab.
        rememberRedirect(router.asPath);
        await router.replace('/credentials');
        return;
      }
      setAccount({ email, masterKey });
    })();
  }, [needs, router]);

  return account;
}
