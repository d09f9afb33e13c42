// What the public album page says when a link cannot open an album (`public_album.<reason>_title` and `_body`),
// with Try again where trying again can help. Kept light (the shared page frame, two MUI parts): a visit to
// /shared-albums without a link shows it from the route's first load, before any album code is fetched.
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { PageFrame } from '@ente/shared/components/PageFrame.tsx';

import type { PublicAlbumErrorReason } from './errors.ts';

/** The reasons that stop the page before the album (the password step handles the others). */
export type LinkProblemReason = Exclude<PublicAlbumErrorReason, 'passwordRequired' | 'wrongPassword' | 'tooManyTries'>;

/** Under a parent that waited for the photos translations. */
export function LinkProblem({ reason, onRetry }: { reason: LinkProblemReason; onRetry?: () => void }) {
  const { t } = useTranslation('photos');
  const retryable = onRetry && (reason === 'network' || reason === 'server');
  return (
    <PageFrame title={t(`public_album.${reason}_title`)}>
      <Typography role="alert" sx={{ color: 'text.secondary' }}>
        {t(`public_album.${reason}_body`)}
      </Typography>
      {retryable && (
        <Button variant="contained" sx={{ mt: 3 }} onClick={onRetry}>
          {t('public_album.retry')}
        </Button>
      )}
    </PageFrame>
  );
}
