// The unpaired screen: the six-character code, very large and in the theme's strongest contrast so it reads
// from across a room, how to use it, and, after a cast ended, why the screen is back here.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import type { PairingNotice } from './pairing.ts';

const noticeKeys = {
  revoked: 'notice_revoked',
  failed: 'notice_failed',
  unreadable: 'notice_unreadable',
  offline: 'notice_offline',
} as const satisfies Record<PairingNotice, string>;

export function PairingScreen({ code, notice }: { code: string | undefined; notice: PairingNotice | undefined }) {
  const { t } = useTranslation('cast');
  return (
    <Box sx={{ textAlign: 'center' }}>
      <Typography variant="h6" component="p" sx={{ color: 'text.primary' }}>
        {t('pair_instructions')}
      </Typography>
      <Typography
        component="p"
        data-testid="cast-code"
        sx={{
          my: 4,
          color: 'text.primary',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontWeight: 700,
          fontSize: 'clamp(3rem, 13vw, 10rem)',
          letterSpacing: '0.12em',
          lineHeight: 1.1,
          minHeight: '1.1em',
        }}
      >
        {code ?? t('code_pending')}
      </Typography>
      <Typography variant="body1" role="status" sx={{ color: 'text.primary', minHeight: '1.5em' }}>
        {notice ? t(noticeKeys[notice]) : ''}
      </Typography>
    </Box>
  );
}
