// Importing another app's export (docs/formats.md): the user chooses, drops or pastes a file; an encrypted
// one asks for its password (a wrong one keeps the file for another try); the preview lists what will be
// added, what duplicates a code already here (left out unless chosen) and what cannot be imported and why;
// the codes are then encrypted and uploaded in batches with a progress bar. The readers load with the
// first file (services/import/read.ts), so nothing of them is in /auth's first load.
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
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { log } from '@ente/shared/log.ts';

import { codesToImport, previewImport, type ImportPreview } from '../../services/import/preview.ts';
import {
  ImportFormatError,
  ImportPasswordError,
  ImportSizeError,
  type ImportResult,
  type SkipReason,
} from '../../services/import/types.ts';
import type { Code, CodeData } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';
import type { Vault } from '../../vault/vault.ts';
import { formatName, mergeResults } from './import-text.ts';

/** How many entries of each list are shown; the rest are counted. */
const shownEntries = 100;

type Step =
  | { kind: 'choose'; error?: ReadError }
  | { kind: 'reading' }
  | { kind: 'password'; wrong: boolean }
  | { kind: 'preview'; preview: ImportPreview }
  | { kind: 'importing'; done: number; total: number }
  | { kind: 'finished'; added: number; failed?: { remaining: number; reasonKey?: string } };

type ReadError = { kind: 'format'; detail: string } | { kind: 'size'; megabytes: number } | { kind: 'unknown' };

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  vault: Vault;
  /** The vault's codes now (trashed included): what duplicates are found against. */
  codes: readonly Code[];
}

export function ImportDialog({ open, onClose, vault, codes }: ImportDialogProps): React.ReactNode {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (open) void loadNamespace('import').then(() => setReady(true));
  }, [open]);
  return (
    <Dialog open={open && ready} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="import-dialog-title">
      {open && ready && <ImportSteps onClose={onClose} vault={vault} codes={codes} />}
    </Dialog>
  );
}

function ImportSteps({ onClose, vault, codes }: Omit<ImportDialogProps, 'open'>) {
  const { t } = useTranslation('import');
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [inputs, setInputs] = useState<(Blob | string)[]>([]);
  const [password, setPassword] = useState('');
  const [pasted, setPasted] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const aborter = useRef<AbortController | undefined>(undefined);
  const fileInput = useRef<HTMLInputElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = { paste: useId(), password: useId(), progress: useId() };
  useEffect(() => () => aborter.current?.abort(), []);
  // Each step starts at its title, unless it starts in a field (a password).
  useEffect(() => {
    if (document.activeElement?.tagName !== 'INPUT') headingRef.current?.focus();
  }, [step.kind]);

  const read = async (files: (Blob | string)[], withPassword?: string) => {
    if (files.length === 0) return;
    setInputs(files);
    setStep({ kind: 'reading' });
    const controller = new AbortController();
    aborter.current = controller;
    try {
      const { readImport } = await import('../../services/import/read.ts');
      const results: ImportResult[] = [];
      for (const file of files)
        results.push(await readImport(file, { password: withPassword, signal: controller.signal }));
      const preview = previewImport(mergeResults(results), codes);
      setChosen(new Set());
      setStep({ kind: 'preview', preview });
    } catch (e) {
      if (controller.signal.aborted) return;
      if (e instanceof ImportPasswordError) {
        setStep({ kind: 'password', wrong: e.kind === 'wrong' });
        return;
      }
      setStep({ kind: 'choose', error: readErrorOf(e) });
    }
  };

  const upload = async (preview: ImportPreview) => {
    const datas: CodeData[] = codesToImport(preview, chosen);
    const controller = new AbortController();
    aborter.current = controller;
    setStep({ kind: 'importing', done: 0, total: datas.length });
    let saved = 0;
    try {
      await vault.addMany(datas, {
        signal: controller.signal,
        onProgress: (done, total) => {
          saved = done;
          setStep({ kind: 'importing', done, total });
        },
      });
      setStep({ kind: 'finished', added: datas.length });
    } catch (e) {
      const reasonKey =
        typeof e === 'object' && e !== null && 'errorKey' in e && typeof e.errorKey === 'string'
          ? e.errorKey
          : undefined;
      setStep({ kind: 'finished', added: saved, failed: { remaining: datas.length - saved, reasonKey } });
    }
  };

  const cancel = () => {
    aborter.current?.abort();
    if (step.kind === 'reading') setStep({ kind: 'choose' });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    const files = [...event.dataTransfer.files];
    if (files.length) void read(files);
  };

  const title = (
    <DialogTitle id="import-dialog-title" ref={headingRef} tabIndex={-1}>
      {t('title')}
    </DialogTitle>
  );

  switch (step.kind) {
    case 'choose':
      return (
        <>
          {title}
          <DialogContent onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
            <Stack spacing={2}>
              <Typography>{t('choose.intro')}</Typography>
              <Typography variant="body2" color="text.secondary">
                {t('choose.formats')}
              </Typography>
              {step.error && <ReadErrorAlert error={step.error} />}
              <Box
                sx={{
                  border: 2,
                  borderStyle: 'dashed',
                  borderColor: 'divider',
                  borderRadius: 2,
                  p: 3,
                  textAlign: 'center',
                }}
              >
                <Button variant="contained" onClick={() => fileInput.current?.click()}>
                  {t('choose.files')}
                </Button>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                  {t('choose.drop')}
                </Typography>
                <input
                  ref={fileInput}
                  type="file"
                  multiple
                  hidden
                  aria-label={t('choose.files')}
                  data-testid="import-file-input"
                  onChange={(event) => {
                    const files = [...(event.target.files ?? [])];
                    event.target.value = '';
                    void read(files);
                  }}
                />
              </Box>
              <TextField
                id={ids.paste}
                label={t('choose.paste_label')}
                multiline
                minRows={3}
                maxRows={8}
                value={pasted}
                onChange={(event) => setPasted(event.target.value)}
                slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off' } }}
              />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('close')}</Button>
            <Button disabled={pasted.trim() === ''} onClick={() => void read([pasted])}>
              {t('choose.paste_read')}
            </Button>
          </DialogActions>
        </>
      );
    case 'reading':
      return (
        <>
          {title}
          <DialogContent>
            <Typography id={ids.progress}>{t('reading')}</Typography>
            <LinearProgress aria-labelledby={ids.progress} sx={{ mt: 2 }} />
          </DialogContent>
          <DialogActions>
            <Button onClick={cancel}>{t('cancel')}</Button>
          </DialogActions>
        </>
      );
    case 'password':
      return (
        <>
          {title}
          <Box
            component="form"
            onSubmit={(event) => {
              event.preventDefault();
              if (password !== '') void read(inputs, password);
            }}
          >
            <DialogContent>
              <Stack spacing={2}>
                <Typography>{t('password.intro')}</Typography>
                {step.wrong && <Alert severity="error">{t('password.wrong')}</Alert>}
                <TextField
                  id={ids.password}
                  type="password"
                  label={t('password.label')}
                  value={password}
                  autoFocus
                  onChange={(event) => setPassword(event.target.value)}
                  slotProps={{ htmlInput: { autoComplete: 'off' } }}
                />
              </Stack>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setStep({ kind: 'choose' })}>{t('password.other_file')}</Button>
              <Button type="submit" variant="contained" disabled={password === ''}>
                {t('password.open')}
              </Button>
            </DialogActions>
          </Box>
        </>
      );
    case 'preview':
      return (
        <>
          {title}
          <DialogContent>
            <PreviewLists
              preview={step.preview}
              chosen={chosen}
              onChoose={(key, on) =>
                setChosen((current) => {
                  const next = new Set(current);
                  if (on) next.add(key);
                  else next.delete(key);
                  return next;
                })
              }
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setStep({ kind: 'choose' })}>{t('preview.other_file')}</Button>
            <Button
              variant="contained"
              disabled={step.preview.fresh.length + chosen.size === 0}
              onClick={() => void upload(step.preview)}
            >
              {t('preview.import', { count: step.preview.fresh.length + chosen.size })}
            </Button>
          </DialogActions>
        </>
      );
    case 'importing':
      return (
        <>
          {title}
          <DialogContent>
            <Typography id={ids.progress}>{t('importing.progress', { done: step.done, total: step.total })}</Typography>
            <LinearProgress
              variant="determinate"
              value={step.total ? (100 * step.done) / step.total : 0}
              aria-labelledby={ids.progress}
              sx={{ mt: 2 }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={cancel}>{t('cancel')}</Button>
          </DialogActions>
        </>
      );
    case 'finished':
      return (
        <>
          {title}
          <DialogContent>
            {step.failed ? (
              <Alert severity="warning" role="alert">
                {t('finished.partial', { added: step.added, remaining: step.failed.remaining })}
              </Alert>
            ) : (
              <Alert severity="success" role="status">
                {t('finished.done', { count: step.added })}
              </Alert>
            )}
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

function PreviewLists({
  preview,
  chosen,
  onChoose,
}: {
  preview: ImportPreview;
  chosen: ReadonlySet<string>;
  onChoose: (key: string, chosen: boolean) => void;
}) {
  const { t } = useTranslation('import');
  // Names as the file has them, characters that draw nothing shown as markers (what is added has none).
  const name = (data: { issuer: string; account: string }) =>
    [data.issuer, data.account]
      .filter((part) => part.trim() !== '')
      .map(visibleText)
      .join(' — ') || t('preview.no_name');
  const more = (count: number) =>
    count > shownEntries && (
      <Typography variant="body2" color="text.secondary">
        {t('preview.more', { count: count - shownEntries })}
      </Typography>
    );
  return (
    <Stack spacing={2}>
      <Typography>{t('preview.format', { format: formatName(t, preview.format) })}</Typography>
      <section aria-labelledby="import-fresh">
        <Typography id="import-fresh" variant="h6" component="h3">
          {t('preview.fresh', { count: preview.fresh.length })}
        </Typography>
        {preview.trashed > 0 && (
          <Typography variant="body2">{t('preview.trashed', { count: preview.trashed })}</Typography>
        )}
        <Box component="ul" sx={{ m: 0, pl: 3 }}>
          {preview.fresh.slice(0, shownEntries).map((entry) => (
            <li key={entry.key}>
              <bdi>{name(entry.data)}</bdi>
            </li>
          ))}
        </Box>
        {more(preview.fresh.length)}
      </section>
      {preview.duplicates.length > 0 && (
        <section aria-labelledby="import-duplicates">
          <Typography id="import-duplicates" variant="h6" component="h3">
            {t('preview.duplicates', { count: preview.duplicates.length })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('preview.duplicates_hint')}
          </Typography>
          <Stack>
            {preview.duplicates.slice(0, shownEntries).map((entry) => (
              <FormControlLabel
                key={entry.key}
                control={<Checkbox checked={chosen.has(entry.key)} onChange={(_, on) => onChoose(entry.key, on)} />}
                label={
                  entry.of === 'file'
                    ? t('preview.repeat_in_file', { name: name(entry.data) })
                    : t('preview.duplicate_of', { name: name(entry.data), existing: name(entry.of) })
                }
              />
            ))}
          </Stack>
          {more(preview.duplicates.length)}
        </section>
      )}
      {preview.skipped.length > 0 && (
        <section aria-labelledby="import-skipped">
          <Typography id="import-skipped" variant="h6" component="h3">
            {t('preview.skipped', { count: preview.skipped.length })}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {preview.skipped.slice(0, shownEntries).map((entry, index) => (
              <li key={index}>
                {t('preview.skipped_entry', {
                  name: name(entry),
                  reason: t(`reason.${entry.reason satisfies SkipReason}`, { detail: entry.detail ?? '' }),
                })}
              </li>
            ))}
          </Box>
          {more(preview.skipped.length)}
        </section>
      )}
    </Stack>
  );
}

function ReadErrorAlert({ error }: { error: ReadError }) {
  const { t } = useTranslation('import');
  return (
    <Alert severity="error" role="alert">
      {error.kind === 'format' && (
        <>
          {t('error.format')}
          <Typography variant="body2" component="span" sx={{ display: 'block', mt: 0.5 }}>
            {error.detail}
          </Typography>
        </>
      )}
      {error.kind === 'size' && t('error.size', { size: error.megabytes })}
      {error.kind === 'unknown' && t('error.unknown')}
    </Alert>
  );
}

function readErrorOf(e: unknown): ReadError {
  if (e instanceof ImportFormatError) return { kind: 'format', detail: e.detail };
  if (e instanceof ImportSizeError) return { kind: 'size', megabytes: Math.floor(e.limitBytes / 1024 / 1024) };
  log.error('Could not read the file to import', e);
  return { kind: 'unknown' };
}
