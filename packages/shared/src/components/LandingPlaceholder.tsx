// The landing page of an app until its real content exists: the page header, a heading and a line of
// text, all from translation keys. A page that needs a signed-in user sends a signed-out visitor to
// /login (issue 2, "Routes"), showing the loading overlay meanwhile.
import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useRouter } from 'next/router';
import { useTranslation } from 'react-i18next';
import { useLoggedIn } from '../app/use-logged-in.ts';
import { isLoggedIn } from '../storage/user.ts';
import { LoadingOverlay } from './LoadingOverlay.tsx';
import { PageHeader } from './PageHeader.tsx';

export interface LandingPlaceholderProps {
  /** Translation key (namespace common) of the page's heading. */
  headingKey: string;
  /** Translation key (namespace common) of the line below it. */
  bodyKey: string;
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

  return (
    <>
      <PageHeader />
      <Box component="main" sx={{ px: { xs: 2, sm: 3 }, py: { xs: 4, md: 8 }, maxWidth: 720, mx: 'auto' }}>
        <Typography variant="h2" component="h1" sx={{ mb: 2 }}>
          {t(headingKey)}
        </Typography>
        <Typography variant="body1" sx={{ color: 'text.secondary' }}>
          {t(bodyKey)}
        </Typography>
      </Box>
    </>
  );
}
