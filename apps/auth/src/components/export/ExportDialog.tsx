// Exporting the codes (docs/formats.md, writing): the user picks a format (Ente's encrypted export first
// and recommended; the unencrypted ones only after ticking that the file holds the secrets in the clear),
// types the account password again, and for the encrypted export chooses its password (Argon2id runs in
// the crypto worker). Google Authenticator's export is shown as QR codes, one batch at a time. Ente's
// exports keep the trashed codes, as Ente's do; the others leave them out. Everything here loads when the
// dialog opens.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { currentLocale, loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { log } from '@ente/shared/log.ts';

import type { Code } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';

export type ExportFormat = 'ente-encrypted' | 'ente-plain' | 'html' | 'google' | 'aegis';

const formats: readonly ExportFormat[] = ['ente-encrypted', 'ente-plain', 'html', 'google', 'aegis'];

/** The shortest export password (Ente's apps ask at least 8 characters for their backups). */
export const minExportPasswordLength = 8;

type Step =
  | { kind: 'choose' }
  | { kind: 'account-password'; wrong: boolean; checking: boolean }
  | { kind: 'export-password'; error?: 'short' | 'mismatch' | 'failed'; working: boolean }
  | { kind: 'google'; images: string[]; index: number; left: string[] }
  | { kind: 'saved'; fileName: string };

export interface ExportDialogProps {
  open: boolean;
  onClose: () => void;
  /** Every code, trashed ones included. */
  codes: readonly Code[];
}

export function ExportDialog({ open, onClose, codes }: ExportDialogProps): React.ReactNode {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (open) void loadNamespace('export').then(() => setReady(true));
  }, [open]);
  return (
    <Dialog open={open && ready} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="export-dialog-title">
      {open && ready && <ExportSteps onClose={onClose} codes={codes} />}
    </Dialog>
  );
}

function ExportSteps({ onClose, codes }: Omit<ExportDialogProps, 'open'>) {
  const { t } = useTranslation('export');
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [format, setFormat] = useState<ExportFormat>('ente-encrypted');
  const [understood, setUnderstood] = useState(false);
  const [accountPassword, setAccountPassword] = useState('');
  const [exportPassword, setExportPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = { radio: useId(), status: useId() };
  // Each step starts at its title, unless it starts in a field (a password).
  useEffect(() => {
    if (document.activeElement?.tagName !== 'INPUT') headingRef.current?.focus();
  }, [step.kind]);

  const trashed = codes.filter((code) => code.display.trashed).length;
  const enteFormat = format === 'ente-encrypted' || format === 'ente-plain';
  const chosenCodes = enteFormat ? codes : codes.filter((code) => !code.display.trashed);

  const checkAccountPassword = async (event: SyntheticEvent) => {
    event.preventDefault();
    setStep({ kind: 'account-password', wrong: false, checking: true });
    try {
      const { masterKeyWithPassword } = await import('@ente/accounts/services/account-recovery-key.ts');
      await masterKeyWithPassword(accountPassword);
    } catch (e) {
      if (!(e instanceof Error && 'errorKey' in e && e.errorKey === 'incorrectPassword')) {
        log.error('Could not check the password before an export', e);
      }
      setStep({ kind: 'account-password', wrong: true, checking: false });
      return;
    }
    setAccountPassword('');
    if (format === 'ente-encrypted') setStep({ kind: 'export-password', working: false });
    else await exportUnencrypted();
  };

  const exportUnencrypted = async () => {
    const services = await import('../../services/export/formats.ts');
    const now = new Date();
    if (format === 'google') {
      const [{ encodeMigration }, QRCode] = await Promise.all([
        import('../../services/migration.ts'),
        import('qrcode'),
      ]);
      const { uris, skipped } = encodeMigration(chosenCodes);
      const images = await Promise.all(
        uris.map((uri) => QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 4, width: 320 })),
      );
      setStep({
        kind: 'google',
        images,
        index: 0,
        left: skipped.map((code) => visibleText(code.issuer || code.account)),
      });
      return;
    }
    let content: string;
    let type = 'text/plain';
    if (format === 'ente-plain') {
      content = services.entePlainText(chosenCodes);
    } else if (format === 'aegis') {
      content = services.aegisJSON(chosenCodes);
      type = 'application/json';
    } else {
      const QRCode = await import('qrcode');
      const svgs = new Map<string, string>();
      for (const [index, uri] of chosenCodes.map(services.sheetURI).entries()) {
        svgs.set(uri, await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }));
        // About 1.5 ms a code: let the page breathe every 20, so a 1,000-code sheet never holds it up.
        if (index % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 0));
      }
      content = services.htmlSheet(
        chosenCodes,
        {
          title: t('sheet.title'),
          warning: t('sheet.warning'),
          issuer: t('sheet.issuer'),
          account: t('sheet.account'),
          details: t('sheet.details'),
        },
        (uri) => svgs.get(uri) ?? '',
        currentLocale(),
      );
      type = 'text/html';
    }
    const fileName = services.exportFileName(format, now);
    services.download(content, fileName, type);
    setStep({ kind: 'saved', fileName });
  };

  const exportEncrypted = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (exportPassword.length < minExportPasswordLength) {
      setStep({ kind: 'export-password', error: 'short', working: false });
      return;
    }
    if (exportPassword !== repeated) {
      setStep({ kind: 'export-password', error: 'mismatch', working: false });
      return;
    }
    setStep({ kind: 'export-password', working: true });
    try {
      const [services, { cryptoWorker }] = await Promise.all([
        import('../../services/export/formats.ts'),
        import('@ente/crypto/client.ts'),
      ]);
      const envelope = await (
        await cryptoWorker()
      ).encryptEnteExport(exportPassword, services.entePlainText(chosenCodes));
      const fileName = services.exportFileName('ente-encrypted', new Date());
      services.download(JSON.stringify(envelope), fileName, 'text/plain');
      setExportPassword('');
      setRepeated('');
      setStep({ kind: 'saved', fileName });
    } catch (e) {
      log.error('Could not make the encrypted export', e);
      setStep({ kind: 'export-password', error: 'failed', working: false });
    }
  };

  const title = (
    <DialogTitle id="export-dialog-title" ref={headingRef} tabIndex={-1}>
      {t('title')}
    </DialogTitle>
  );
  const closeButton = <Button onClick={onClose}>{t('close')}</Button>;

  switch (step.kind) {
    case 'choose':
      return (
        <>
          {title}
          <DialogContent>
            <Stack spacing={2}>
              <Typography>{t('choose.count', { count: codes.length, trashed })}</Typography>
              <RadioGroup
                aria-labelledby={ids.radio}
                value={format}
                onChange={(event) => {
                  setFormat(event.target.value as ExportFormat);
                  setUnderstood(false);
                }}
              >
                <Typography id={ids.radio} variant="subtitle1" component="h3">
                  {t('choose.format')}
                </Typography>
                {formats.map((option) => (
                  <FormControlLabel
                    key={option}
                    value={option}
                    control={<Radio />}
                    label={
                      <Box sx={{ py: 0.5 }}>
                        <Typography>{t(`format.${option}.name`)}</Typography>
                        <Typography variant="body2" color="text.secondary">
                          {t(`format.${option}.description`)}
                        </Typography>
                      </Box>
                    }
                  />
                ))}
              </RadioGroup>
              {format !== 'ente-encrypted' && (
                <Alert severity="warning">
                  {t('choose.plain_warning')}
                  <FormControlLabel
                    sx={{ display: 'flex', mt: 1 }}
                    control={<Checkbox checked={understood} onChange={(_, on) => setUnderstood(on)} />}
                    label={t('choose.understood')}
                  />
                </Alert>
              )}
            </Stack>
          </DialogContent>
          <DialogActions>
            {closeButton}
            <Button
              variant="contained"
              disabled={(format !== 'ente-encrypted' && !understood) || chosenCodes.length === 0}
              onClick={() => setStep({ kind: 'account-password', wrong: false, checking: false })}
            >
              {t('continue')}
            </Button>
          </DialogActions>
        </>
      );
    case 'account-password':
      return (
        <>
          {title}
          <Box component="form" onSubmit={(event) => void checkAccountPassword(event)}>
            <DialogContent>
              <Stack spacing={2}>
                <Typography>{t('account.intro')}</Typography>
                {step.wrong && <Alert severity="error">{t('account.wrong')}</Alert>}
                <TextField
                  type="password"
                  label={t('account.label')}
                  value={accountPassword}
                  autoFocus
                  autoComplete="current-password"
                  onChange={(event) => setAccountPassword(event.target.value)}
                />
                {step.checking && <LinearProgress aria-label={t('account.checking')} />}
              </Stack>
            </DialogContent>
            <DialogActions>
              {closeButton}
              <Button type="submit" variant="contained" disabled={accountPassword === '' || step.checking}>
                {t('continue')}
              </Button>
            </DialogActions>
          </Box>
        </>
      );
    case 'export-password':
      return (
        <>
          {title}
          <Box component="form" onSubmit={(event) => void exportEncrypted(event)}>
            <DialogContent>
              <Stack spacing={2}>
                <Typography>{t('encrypted.intro')}</Typography>
                {step.error && (
                  <Alert severity="error">
                    {t(`encrypted.error_${step.error}`, { count: minExportPasswordLength })}
                  </Alert>
                )}
                <TextField
                  type="password"
                  label={t('encrypted.password')}
                  value={exportPassword}
                  autoFocus
                  autoComplete="new-password"
                  disabled={step.working}
                  onChange={(event) => setExportPassword(event.target.value)}
                />
                <TextField
                  type="password"
                  label={t('encrypted.repeat')}
                  value={repeated}
                  autoComplete="new-password"
                  disabled={step.working}
                  onChange={(event) => setRepeated(event.target.value)}
                />
                {step.working && (
                  <>
                    <Typography id={ids.status} role="status">
                      {t('encrypted.working')}
                    </Typography>
                    <LinearProgress aria-labelledby={ids.status} />
                  </>
                )}
              </Stack>
            </DialogContent>
            <DialogActions>
              {closeButton}
              <Button type="submit" variant="contained" disabled={step.working || exportPassword === ''}>
                {t('encrypted.save')}
              </Button>
            </DialogActions>
          </Box>
        </>
      );
    case 'google': {
      const { images, index, left } = step;
      return (
        <>
          {title}
          <DialogContent>
            <Stack spacing={2} sx={{ alignItems: 'center' }}>
              <Typography>{t('google.intro')}</Typography>
              <Box
                component="img"
                src={images[index]}
                alt={t('google.image', { index: index + 1, total: images.length })}
                sx={{ width: 320, maxWidth: '100%', imageRendering: 'pixelated', bgcolor: 'common.white' }}
              />
              <Typography role="status">{t('google.position', { index: index + 1, total: images.length })}</Typography>
              {left.length > 0 && (
                <Alert severity="info" sx={{ alignSelf: 'stretch' }}>
                  {t('google.left_out', { names: left.join(', ') })}
                </Alert>
              )}
            </Stack>
          </DialogContent>
          <DialogActions>
            {closeButton}
            <Button disabled={index === 0} onClick={() => setStep({ ...step, index: index - 1 })}>
              {t('google.previous')}
            </Button>
            <Button
              variant="contained"
              disabled={index >= images.length - 1}
              onClick={() => setStep({ ...step, index: index + 1 })}
            >
              {t('google.next')}
            </Button>
          </DialogActions>
        </>
      );
    }
    case 'saved':
      return (
        <>
          {title}
          <DialogContent>
            <Alert severity="success" role="status">
              {t('saved', { fileName: step.fileName })}
            </Alert>
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              {t('close')}
            </Button>
          </DialogActions>
        </>
      );
  }
}
