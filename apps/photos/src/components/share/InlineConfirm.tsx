// A confirmation inside the share dialog (stop sharing with someone, remove the link): what happens, Cancel
// (focused, so that Enter never confirms by accident) and the action's button. Inline rather than a second
// dialog over the first, so that the focus stays in one dialog.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

export interface InlineConfirmProps {
  text: string;
  confirmLabel: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function InlineConfirm({ text, confirmLabel, pending, onCancel, onConfirm }: InlineConfirmProps) {
  const { t: tc } = useTranslation('common');
  return (
    <Alert severity="warning" role="group" aria-label={text} sx={{ mt: 1 }}>
      {text}
      <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
        <Button size="small" autoFocus onClick={onCancel} disabled={pending}>
          {tc('cancel')}
        </Button>
        <LoadingButton size="small" variant="contained" color="error" loading={pending} onClick={onConfirm}>
          {confirmLabel}
        </LoadingButton>
      </Box>
    </Alert>
  );
}
