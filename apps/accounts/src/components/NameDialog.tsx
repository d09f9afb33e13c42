// The dialog that names a passkey, when it is added or renamed: one field, checked as the server checks
// it before anything is sent. `onSubmit` does the work; what goes wrong is said under the field, except a
// browser prompt the person closed (NotAllowedError), which needs no words. The page loads this module
// when the dialog is first wanted and gives it a new `key` each time, so it starts from `initial`.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { Field } from '@ente/accounts/components/Field.tsx';
import { log } from '@ente/shared/log.ts';

import { nameProblem, passkeyProblem, type PasskeyProblem } from '../services/passkey-errors.ts';

export interface NameDialogProps {
  title: string;
  submitLabel: string;
  initial: string;
  /** What a failure of `onSubmit` is called when nothing more specific is known. */
  failure: PasskeyProblem;
  onClose: () => void;
  onSubmit: (name: string) => Promise<void>;
}

export default function NameDialog({ title, submitLabel, initial, failure, onClose, onSubmit }: NameDialogProps) {
  const { t } = useTranslation('passkeys');
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const titleID = useId();

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    const invalid = nameProblem(trimmed);
    if (invalid) {
      setError(t(invalid));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(trimmed);
    } catch (e) {
      if (!(e instanceof Error && e.name === 'NotAllowedError')) {
        log.warn('Could not name a passkey', e);
        setError(t(passkeyProblem(e, failure)));
      }
    }
    setBusy(false);
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby={titleID}>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleID}>{title}</DialogTitle>
        <DialogContent>
          <Field
            autoFocus
            label={t('name_label')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setError(undefined);
            }}
            error={error}
            hint={t('name_hint')}
            disabled={busy}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
