// Shows a code as a QR code, to move it to another device. The QR code holds the secret, so it is drawn
// only once the user asks, after a warning, and goes away with the dialog. What it holds is the plain
// `otpauth://` URI, without our `codeDisplay` (see plainCodeURI in services/code-edits.ts). The QR library
// is fetched when the first QR code is drawn.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import { plainCodeURI } from '../../services/code-edits.ts';
import type { Code } from '../../services/types.ts';
import { codeName } from './editor-text.ts';

export interface ShowQRDialogProps {
  code: Code | undefined;
  onClose: () => void;
}

export function ShowQRDialog({ code, onClose }: ShowQRDialogProps): React.ReactNode {
  const { t } = useTranslation('codes');
  const id = useId();
  // The code stays shown while the dialog closes; a new code starts hidden again.
  const [shown, setShown] = useState(code);
  const [picture, setPicture] = useState<{ code: Code; url: string }>();
  const [drawing, setDrawing] = useState(false);
  const [failed, setFailed] = useState(false);
  const imageRef = useRef<HTMLImageElement>(null);
  const showButtonRef = useRef<HTMLButtonElement>(null);
  const [hiddenByUser, setHiddenByUser] = useState(0);
  if (code && code !== shown) {
    setShown(code);
    setPicture(undefined);
    setFailed(false);
  }
  if (!code && picture) setPicture(undefined);
  const visible = picture && picture.code === shown ? picture.url : undefined;

  // The focus follows what replaced the button pressed: the picture, or the "Show" button again.
  useEffect(() => {
    if (visible) imageRef.current?.focus();
  }, [visible]);
  useEffect(() => {
    if (hiddenByUser > 0) showButtonRef.current?.focus();
  }, [hiddenByUser]);

  const draw = async () => {
    if (!shown) return;
    setDrawing(true);
    setFailed(false);
    try {
      const qrcode = await import('qrcode');
      const svg = await qrcode.toString(plainCodeURI(shown), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      setPicture({ code: shown, url: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
    } catch {
      setFailed(true);
    }
    setDrawing(false);
  };

  const name = shown ? codeName(t, shown) : '';
  return (
    <Dialog
      open={code !== undefined}
      onClose={onClose}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-warning`}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={`${id}-title`}>{t('editor.qr_title', { name })}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" id={`${id}-warning`} sx={{ mb: 2 }}>
          {t('editor.qr_warning')}
        </Alert>
        {visible ? (
          <Box sx={{ textAlign: 'center' }}>
            <Box
              component="img"
              ref={imageRef}
              tabIndex={-1}
              src={visible}
              alt={t('editor.qr_alt', { name })}
              sx={{ width: '100%', maxWidth: 280, aspectRatio: '1', bgcolor: '#fff', borderRadius: 1, outline: 'none' }}
            />
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('editor.qr_hint')}
            </Typography>
          </Box>
        ) : (
          <Box sx={{ textAlign: 'center' }}>
            <LoadingButton
              ref={showButtonRef}
              variant="contained"
              onClick={() => void draw()}
              loading={drawing}
              autoFocus
            >
              {t('editor.qr_show')}
            </LoadingButton>
          </Box>
        )}
        {failed && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {t('editor.qr_draw_failed')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {visible && (
          <Button
            onClick={() => {
              setPicture(undefined);
              setHiddenByUser((count) => count + 1);
            }}
          >
            {t('editor.qr_hide')}
          </Button>
        )}
        <Button onClick={onClose}>{t('editor.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export default ShowQRDialog;
