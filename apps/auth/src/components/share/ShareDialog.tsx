// The dialog that makes a share link for one code (services/share.ts, docs/protocol.md#share-links):
// the user picks how long the link works (2, 5 or 10 minutes), is told plainly that anyone with the
// link sees the codes until then, creates the link and copies it. Only TOTP and Steam codes can be
// shared. Open while `code` is set.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import OutlinedInput from '@mui/material/OutlinedInput';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';
import { currentLocale } from '@ente/shared/i18n/i18n.ts';
import { log } from '@ente/shared/log.ts';

import { canShare, shareDurations, shareLink, shareWindow, type ShareMinutes } from '../../services/share.ts';
import type { Code } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';

export function ShareDialog({
  code,
  timeOffsetMs,
  onClose,
}: {
  code: Code | undefined;
  timeOffsetMs: number;
  onClose: () => void;
}): React.ReactNode {
  const { t } = useTranslation('codes');
  const titleId = useId();
  return (
    <Dialog open={code !== undefined} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('share.dialogTitle')}</DialogTitle>
      {/* Keyed by the code, so that nothing of one code's link survives into another's. */}
      {code && <ShareContent key={code.id} code={code} timeOffsetMs={timeOffsetMs} />}
      <DialogActions>
        <Button onClick={onClose}>{t('share.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

interface CreatedLink {
  url: string;
  /** When the link's last code ends, on this device's clock (ms). */
  endsAt: number;
}

function ShareContent({ code, timeOffsetMs }: { code: Code; timeOffsetMs: number }) {
  const { t } = useTranslation('codes');
  const [minutes, setMinutes] = useState<ShareMinutes>(5);
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<CreatedLink>();
  const [problem, setProblem] = useState<'createFailed' | 'copyFailed'>();
  const [copied, setCopied] = useState(false);
  const linkId = useId();
  const [issuer, account] = [visibleText(code.issuer), visibleText(code.account)];
  const name = issuer && account ? `${issuer} (${account})` : issuer || account;

  if (!canShare(code)) {
    return (
      <DialogContent>
        <Typography>{t('share.notShareable')}</Typography>
      </DialogContent>
    );
  }

  const create = async () => {
    setBusy(true);
    setProblem(undefined);
    setCopied(false);
    try {
      const now = Date.now() + timeOffsetMs;
      const url = await shareLink(code, minutes, now, window.location.origin);
      const { startTime, count } = shareWindow(code.period, minutes, now);
      setLink({ url, endsAt: startTime + count * code.period * 1000 - timeOffsetMs });
    } catch (e) {
      log.error('Could not create a share link', e);
      setProblem('createFailed');
    } finally {
      setBusy(false);
    }
  };

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setProblem(undefined);
    } catch (e) {
      log.warn('Could not copy the share link', e);
      setProblem('copyFailed');
    }
  };

  return (
    <DialogContent>
      <Typography sx={{ mb: 2 }}>{t('share.dialogIntro', { name })}</Typography>
      <Typography id={`${linkId}-duration`} variant="subtitle2" component="p" sx={{ mb: 1 }}>
        {t('share.durationLabel')}
      </Typography>
      <ToggleButtonGroup
        exclusive
        value={minutes}
        aria-labelledby={`${linkId}-duration`}
        onChange={(_, value: ShareMinutes | null) => {
          if (value === null) return;
          setMinutes(value);
          // A link made for another duration is not what the user now asks for.
          setLink(undefined);
          setCopied(false);
        }}
        sx={{ mb: 2 }}
      >
        {shareDurations.map((choice) => (
          <ToggleButton key={choice} value={choice} sx={{ px: 2 }}>
            {t('share.minutes', { minutes: choice })}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {t('share.warning')}
      </Alert>
      {link ? (
        <Box>
          <Typography component="label" htmlFor={linkId} variant="subtitle2" sx={{ display: 'block', mb: 1 }}>
            {t('share.linkLabel')}
          </Typography>
          <OutlinedInput
            id={linkId}
            value={link.url}
            readOnly
            fullWidth
            size="small"
            onFocus={(event) => event.target.select()}
            inputProps={{ spellCheck: false, 'aria-describedby': `${linkId}-until` }}
            sx={{ fontFamily: 'monospace', mb: 1 }}
          />
          <Typography id={`${linkId}-until`} variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
            {t('share.validUntil', { time: timeOf(link.endsAt) })}
          </Typography>
          <LoadingButton variant="contained" done={copied} onClick={() => void copy(link.url)}>
            {t('share.copyLink')}
          </LoadingButton>
          <Box role="status" component="span" sx={{ ml: 2 }}>
            {copied ? t('share.linkCopied') : null}
          </Box>
        </Box>
      ) : (
        <LoadingButton variant="contained" loading={busy} onClick={() => void create()}>
          {t('share.create')}
        </LoadingButton>
      )}
      {problem && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {t(`share.${problem}`)}
        </Alert>
      )}
    </DialogContent>
  );
}

/** A time of day in the app's locale (hours and minutes). */
function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString(currentLocale(), { hour: '2-digit', minute: '2-digit' });
}
