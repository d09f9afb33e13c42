// What the public album page says when a link cannot open an album (`public_album.<reason>_title` and `_body`),
// with Try again where trying again can help. Kept light (the shared page frame, a Box and a plain button, no MUI
// Button or Typography): a visit to /shared-albums without a link shows it from the route's first load, before any
// album code is fetched.
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { PlainButton } from '@ente/shared/components/PlainButton.tsx';

import type { PublicAlbumErrorReason } from './errors.ts';

/** The reasons that stop the page before the album (the password step handles the others). */
export type LinkProblemReason = Exclude<PublicAlbumErrorReason, 'passwordRequired' | 'wrongPassword' | 'tooManyTries'>;

/** Under a parent that waited for the photos translations. */
export function LinkProblem({ reason, onRetry }: { reason: LinkProblemReason; onRetry?: () => void }) {
  const { t } = useTranslation('photos');
  const retryable = onRetry && (reason === 'network' || reason === 'server');
  return (
    <PageFrame title={t(`public_album.${reason}_title`)}>
      <Box component="p" role="alert" sx={{ typography: 'body1', color: 'text.secondary', m: 0 }}>
        {t(`public_album.${reason}_body`)}
      </Box>
      {retryable && (
        <PlainButton variant="contained" sx={{ mt: 3 }} onClick={onRetry}>
          {t('public_album.retry')}
        </PlainButton>
      )}
    </PageFrame>
  );
}
