// The landing page of an app until its real content exists: the page frame with a heading and a line
// of text, both from translation keys, and who is signed in, when someone is. A page that needs a
// signed-in user sends a signed-out visitor to /login (docs/product.md#routes), showing the loading
// overlay meanwhile.
import Typography from '@mui/material/Typography';
import type { ParseKeys } from 'i18next';
import { useRouter } from 'next/router';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useLoggedIn } from '../app/use-logged-in.ts';
import { savedUser } from '../storage/local-storage.ts';
import { isLoggedIn } from '../storage/user.ts';
import { LoadingOverlay } from './LoadingOverlay.tsx';
import { PageFrame } from './PageFrame.tsx';

export interface LandingPlaceholderProps {
  /** Translation key (namespace common) of the page's heading. */
  headingKey: ParseKeys;
  /** Translation key (namespace common) of the line below it. */
  bodyKey: ParseKeys;
  /** Whether a signed-out visitor is sent to /login. */
  requireLogin: boolean;
}

export function LandingPlaceholder({ headingKey, bodyKey, requireLogin }: LandingPlaceholderProps) {
  const { t } = useTranslation('common');
  const router = useRouter();
  const loggedIn = useLoggedIn();
  const redirected = useRef(false);

  useEffect(() => {
    // Decided from storage itself, not from the rendered state, so no stale value can redirect; and
    // only once, as the router object changes while the redirect runs.
    if (redirected.current || !requireLogin || isLoggedIn()) return;
    redirected.current = true;
    void router.replace('/login');
  }, [requireLogin, router]);

  if (requireLogin && !loggedIn) return <LoadingOverlay />;

  // Read when rendering signed in, which the prerender never is (useLoggedIn says no there).
  const email = loggedIn ? savedUser()?.email : undefined;
  return (
    <PageFrame title={t(headingKey)}>
      <Typography variant="body1" sx={{ color: 'text.secondary' }}>
        {t(bodyKey)}
      </Typography>
      {email && (
        <Typography variant="body2" sx={{ mt: 2, overflowWrap: 'anywhere' }}>
          {t('landing_signed_in_as', { email })}
        </Typography>
      )}
    </PageFrame>
  );
}
