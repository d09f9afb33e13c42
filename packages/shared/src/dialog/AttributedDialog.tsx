// Renders one dialog description with MUI, and owns its closing rules (docs/product.md#dialogs): every
// button closes it; the backdrop, Escape and the title's close button close it too, unless it is
// non-closable (none of them) or has a static backdrop (not the backdrop). While the proceed action
// runs nothing else closes it.
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '../components/LoadingButton.tsx';
import type { DialogAttributes } from './types.ts';

/** The widest a dialog gets (docs/product.md#dialogs). */
export const dialogMaxWidthPx = 360;

export interface AttributedDialogProps {
  open: boolean;
  attributes: DialogAttributes;
  onClose: () => void;
  /** Called when the proceed action fails; the dialog stays as it is. */
  onProceedError: (error: unknown) => void;
}

export function AttributedDialog({ open, attributes, onClose, onProceedError }: AttributedDialogProps) {
  const { t } = useTranslation('common');
  const titleId = useId();
  const contentId = useId();
  const [loading, setLoading] = useState(false);
  const { icon, title, content, staticBackdrop, nonClosable, proceed, close, buttons = [] } = attributes;
  const direction = attributes.buttonDirection ?? 'row';
  const canDismiss = !nonClosable && !loading;

  const handleDismiss = (_event: object, reason: 'backdropClick' | 'escapeKeyDown') => {
    if (!canDismiss) return;
    if (reason === 'backdropClick' && staticBackdrop) return;
    onClose();
  };

  const closeThen = (action?: () => void) => {
    onClose();
    action?.();
  };

  const handleProceed = async () => {
    if (!proceed) return;
    setLoading(true);
    try {
      await proceed.action(setLoading);
      onClose();
    } catch (e) {
      onProceedError(e);
    } finally {
      setLoading(false);
    }
  };

  // Read top to bottom in a column (proceed first), left to right in a row (proceed last).
  const ordered = [
    close && (
      <Button
        key="close"
        variant="contained"
        color={close.variant ?? 'secondary'}
        disabled={loading}
        onClick={() => closeThen(close.action)}
      >
        {close.text ?? t('close')}
      </Button>
    ),
    ...buttons.map((button, index) => (
      <Button
        key={`button-${index}`}
        variant="contained"
        color={button.variant ?? 'secondary'}
        disabled={button.disabled || loading}
        onClick={() => closeThen(button.action)}
      >
        {button.text}
      </Button>
    )),
    proceed && (
      <LoadingButton
        key="proceed"
        variant="contained"
        color={proceed.variant ?? 'primary'}
        disabled={proceed.disabled}
        loading={loading}
        onClick={() => void handleProceed()}
      >
        {proceed.text}
      </LoadingButton>
    ),
  ].filter(Boolean);
  const actions = direction === 'column' ? ordered.reverse() : ordered;

  return (
    <Dialog
      open={open}
      onClose={handleDismiss}
      maxWidth={false}
      aria-labelledby={title ? titleId : undefined}
      aria-describedby={content ? contentId : undefined}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: dialogMaxWidthPx, m: 2 } } }}
    >
      {icon && <Box sx={{ px: 3, pt: 3, display: 'flex', '& svg': { fontSize: 40 } }}>{icon}</Box>}
      {(title || !nonClosable) && (
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, pr: nonClosable ? 0 : 1 }}>
          {title ? (
            <DialogTitle id={titleId} sx={{ flex: 1, typography: 'h5', pb: 1 }}>
              {title}
            </DialogTitle>
          ) : (
            <Box sx={{ flex: 1 }} />
          )}
          {!nonClosable && (
            <IconButton aria-label={t('close')} disabled={loading} onClick={onClose} sx={{ mt: 1.5 }}>
              <CloseIcon />
            </IconButton>
          )}
        </Box>
      )}
      {content && (
        <DialogContent id={contentId}>
          {typeof content === 'string' ? <DialogContentText>{content}</DialogContentText> : content}
        </DialogContent>
      )}
      {actions.length > 0 && (
        <DialogActions
          disableSpacing
          sx={{
            flexDirection: direction,
            alignItems: 'stretch',
            gap: 1,
            px: 3,
            pb: 3,
            '& > *': { flex: direction === 'row' ? 1 : undefined },
          }}
        >
          {actions}
        </DialogActions>
      )}
    </Dialog>
  );
}
