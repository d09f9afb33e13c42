// "Play on a screen": how to open the cast page on a TV or any screen, the code it shows typed here, and, once the
// screen plays the album, "Stop". The sending is the page's `cast` (cast-sender.ts's castAlbum through the app's
// services); the dialog says how it went. Fetched with import() when first opened (AlbumCast.tsx).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { CheckedField, InlineForm, useCheckedValue } from '../share/share-parts.tsx';
import { castFailure, typedCode, type CastProblem } from './cast-sender.ts';

export interface CastActions {
  /** Pairs the screen showing `code` (upper case) with the album. */
  cast: (code: string) => Promise<void>;
  /** Stops every screen the person paired. */
  stop: () => Promise<void>;
}

export interface CastDialogProps {
  open: boolean;
  albumName: string;
  /** Where a screen opens the cast page. */
  castPageURL: string;
  actions: CastActions;
  onClose: () => void;
}

type Phase = 'idle' | 'sending' | 'playing' | 'stopping' | 'stopped';
type CodeProblem = 'code_invalid' | 'code_unknown';

export function CastDialog({ open, albumName, castPageURL, actions, onClose }: CastDialogProps) {
  const { t } = useTranslation('photos');
  const { t: tc } = useTranslation('common');
  const titleId = useId();
  const stepsId = useId();
  const code = useCheckedValue<CodeProblem>();
  const [phase, setPhase] = useState<Phase>('idle');
  // A problem of the request, not of the code typed: the dialog's alert.
  const [alert, setAlert] = useState<Exclude<CastProblem, CodeProblem>>();

  const submit = () => {
    const deviceCode = typedCode(code.value);
    setAlert(undefined);
    if (deviceCode === undefined) {
      code.setProblem('code_invalid');
      return;
    }
    setPhase('sending');
    actions.cast(deviceCode).then(
      () => setPhase('playing'),
      (error: unknown) => {
        const failure = castFailure(error);
        if (failure === 'code_unknown' || failure === 'code_invalid') code.setProblem(failure);
        else setAlert(failure);
        setPhase('idle');
      },
    );
  };
  const stop = () => {
    setAlert(undefined);
    setPhase('stopping');
    actions.stop().then(
      () => {
        code.setValue('');
        setPhase('stopped');
      },
      (error: unknown) => {
        // A failed stop leaves the screen playing; the button stays.
        const failure = castFailure(error);
        setAlert(failure === 'code_unknown' || failure === 'code_invalid' ? 'failed' : failure);
        setPhase('playing');
      },
    );
  };
  const playing = phase === 'playing' || phase === 'stopping';

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {t('cast.title', { name: albumName })}
      </DialogTitle>
      <DialogContent>
        <Typography id={stepsId} component="h3" variant="h6">
          {t('cast.steps_heading')}
        </Typography>
        <Box component="ol" aria-labelledby={stepsId} sx={{ pl: 3, mt: 1 }}>
          <li>
            <Typography variant="body2">{t('cast.step_open')}</Typography>
            <Typography variant="body2" component="code" sx={{ fontWeight: 'bold', overflowWrap: 'anywhere' }}>
              {castPageURL}
            </Typography>
          </li>
          <li>
            <Typography variant="body2">{t('cast.step_code')}</Typography>
          </li>
        </Box>
        {alert !== undefined && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {t(`cast.error_${alert}`)}
          </Alert>
        )}
        {playing ? (
          <Alert
            severity="success"
            action={
              // Focus moves here from the field, which the alert replaces (keyboard users go on from it).
              <Button color="inherit" disabled={phase === 'stopping'} onClick={stop} autoFocus>
                {t('cast.stop')}
              </Button>
            }
          >
            {t('cast.playing')}
          </Alert>
        ) : (
          <InlineForm onSubmit={submit}>
            <CheckedField
              field={code}
              says={(problem) => t(`cast.error_${problem}`)}
              label={t('cast.code_label')}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              slotProps={{
                htmlInput: { maxLength: 16, style: { textTransform: 'uppercase', letterSpacing: '0.2em' } },
              }}
              autoFocus
            />
            <Button type="submit" variant="contained" disabled={phase === 'sending'}>
              {t('cast.play')}
            </Button>
          </InlineForm>
        )}
        {phase === 'stopped' && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {t('cast.stopped')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{tc('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
