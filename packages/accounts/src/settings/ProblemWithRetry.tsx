// What went wrong loading a settings value (useRemoteValue), as an alert with a retry button.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { SxProps } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import type { AccountsErrorMessageKey } from '../services/errors.ts';

import '../strings.ts';

export function ProblemWithRetry({
  problem,
  retry,
  sx,
}: {
  problem: AccountsErrorMessageKey;
  retry: () => void;
  sx?: SxProps;
}) {
  const { t } = useTranslation('accounts');
  return (
    <Box role="alert" sx={sx}>
      <Typography variant="body2" sx={{ color: 'error.main', mb: 1 }}>
        {t(problem)}
      </Typography>
      <Button size="small" variant="outlined" onClick={retry}>
        {t('settings_retry')}
      </Button>
    </Box>
  );
}
