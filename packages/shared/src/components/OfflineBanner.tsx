// Tells the user they are offline (docs/product.md#app-shell). The status region is always in the
// page and only its text comes and goes, so that screen readers announce the change.
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

import { useOnline } from '../app/use-online.ts';

export function OfflineBanner() {
  const { t } = useTranslation('common');
  const online = useOnline();
  return (
    <Box
      role="status"
      sx={{
        position: 'sticky',
        top: 0,
        zIndex: (theme) => theme.zIndex.appBar + 1,
        ...(online
          ? {}
          : {
              px: 2,
              py: 1,
              textAlign: 'center',
              typography: 'body2',
              bgcolor: 'text.primary',
              color: 'background.paper',
            }),
      }}
    >
      {online ? null : t('OFFLINE_MSG')}
    </Box>
  );
}
