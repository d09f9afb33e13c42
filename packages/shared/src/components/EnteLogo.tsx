// The product logo, drawn inline (no image file to fetch): a green rounded square holding a lowercase
// "e", and the wordmark in the current text colour.
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

import { loadingBarColor } from '../theme.ts';

export function EnteLogo({ height = 28 }: { height?: number }) {
  const { t } = useTranslation('common');
  return (
    <Box
      component="svg"
      role="img"
      aria-label={t('logo')}
      viewBox="0 0 92 28"
      sx={{ height, width: (height * 92) / 28, display: 'block', color: 'text.primary' }}
    >
      <rect x="0" y="2" width="24" height="24" rx="7" fill={loadingBarColor} />
      <path
        d="M7 14.5h10a5 5 0 1 0-1.6 3.7"
        fill="none"
        stroke="#0b2e18"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <text
        x="31"
        y="20.5"
        fill="currentColor"
        fontFamily="Inter, system-ui, sans-serif"
        fontSize="19"
        fontWeight="700"
        letterSpacing="-0.3"
      >
        ente
      </text>
    </Box>
  );
}
