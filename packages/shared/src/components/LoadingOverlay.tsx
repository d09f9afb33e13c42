// The full-screen loading overlay (docs/product.md#app-shell): covers the window while the app sets
// itself up, while a route change to another path is in progress, and while a page redirects.
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

export function LoadingOverlay() {
  const { t } = useTranslation('common');
  return (
    <Box
      data-testid="loading-overlay"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: (theme) => theme.zIndex.modal + 1,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
      }}
    >
      <CircularProgress aria-label={t('loading')} />
    </Box>
  );
}
