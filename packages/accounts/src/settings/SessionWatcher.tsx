// Watches the session while someone is signed in (the shell loads it then, see account-ui.ts):
// - an authenticated request answered 401 means the session ended elsewhere (revoked, expired, or
//   signed out by a password change on another device): the "session expired" dialog, whose only
//   action is logout (docs/protocol.md#logout);
// - once per page load, the session validity check (docs/protocol.md#account, services/session.ts):
//   an ended session is the same dialog; a password changed on another device (which kept this
//   session) has replaced the local key attributes, so the page reloads as the protocol says; an
//   account that still has no keys goes to /generate, where they are made.
// Renders nothing itself.
import { useRouter } from 'next/router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { reloadAt } from '@ente/shared/app/navigation.ts';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { onUnauthorized } from '@ente/shared/http.ts';
import { log } from '@ente/shared/log.ts';

import { checkSessionValidity } from '../services/session.ts';
import { showSessionExpiredDialog } from './session-expired.ts';

import '../strings.ts';

let validityChecked = false;

export function SessionWatcher() {
  const { t } = useTranslation('accounts');
  const dialog = useDialog();
  const router = useRouter();

  useEffect(() => {
    const sessionExpired = () => showSessionExpiredDialog(dialog, t);
    // Only the token check's refusals arrive here; a wrong code or proof is the page's to explain.
    const unsubscribe = onUnauthorized(sessionExpired);
    if (!validityChecked) {
      validityChecked = true;
      checkSessionValidity().then(
        (validity) => {
          if (validity === 'expired') sessionExpired();
          else if (validity === 'passwordChanged') reloadAt(`${window.location.pathname}${window.location.search}`);
          else if (validity === 'keysMissing' && router.pathname !== '/generate') void router.push('/generate');
        },
        (e: unknown) => log.warn('Could not check whether the session is still valid', e),
      );
    }
    return unsubscribe;
  }, [dialog, t, router]);

  return null;
}

/** For tests: the next watcher checks the session again. */
export function resetSessionValidityCheck(): void {
  validityChecked = false;
}
