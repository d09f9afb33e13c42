// The hidden developer settings of the login page (docs/protocol.md#transport): point this browser
// at another API server, or back at the default one. The new origin must answer `GET /ping` before
// it is saved (saveApiOrigin); problems are shown in the form and nothing is saved.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { ParseKeys } from 'i18next';
import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';
import { log } from '@ente/shared/log.ts';
import { ApiOriginError, saveApiOrigin, savedApiOrigin, type ApiOriginProblem } from '@ente/shared/origins.ts';

import '../strings.ts';

export interface DevSettingsDialogProps {
  open: boolean;
  onClose: () => void;
  /** After a successful save: the stored origin, or undefined when it was cleared. */
  onSaved: (origin: string | undefined) => void;
}

export function DevSettingsDialog({ open, onClose, onSaved }: DevSettingsDialogProps) {
  const { t } = useTranslation(['accounts', 'common']);
  const titleId = useId();
  const [value, setValue] = useState('');
  const [problemKey, setProblemKey] = useState<ParseKeys<'accounts'> | undefined>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    let current = true;
    savedApiOrigin().then(
      (origin) => {
        if (!current) return;
        setValue(origin ?? '');
        setProblemKey(undefined);
      },
      (e: unknown) => log.warn('Could not read the stored API origin', e),
    );
    return () => {
      current = false;
    };
  }, [open]);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaving(true);
    setProblemKey(undefined);
    try {
      await saveApiOrigin(value);
      onSaved(value.trim() ? await savedApiOrigin() : undefined);
      onClose();
    } catch (e) {
      log.warn('The API origin was not saved', e);
      setProblemKey(e instanceof ApiOriginError ? problemKeys[e.problem] : 'dev_settings_save_failed');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={saving ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('dev_settings_title')}</DialogTitle>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            type="url"
            name="apiOrigin"
            label={t('dev_settings_origin_label')}
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              setProblemKey(undefined);
            }}
            error={problemKey !== undefined}
            helperText={t(problemKey ?? 'dev_settings_origin_helper')}
            disabled={saving}
            slotProps={{ htmlInput: { autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false } }}
          />
        </DialogContent>
        <DialogActions>
          <Button color="secondary" onClick={onClose} disabled={saving}>
            {t('common:cancel')}
          </Button>
          <LoadingButton type="submit" variant="contained" loading={saving}>
            {t('dev_settings_save')}
          </LoadingButton>
        </DialogActions>
      </form>
    </Dialog>
  );
}

const problemKeys: Record<ApiOriginProblem, ParseKeys<'accounts'>> = {
  invalidURL: 'dev_settings_invalid_url',
  unreachable: 'dev_settings_unreachable',
  notAServer: 'dev_settings_not_a_server',
};
