// The form of the pages that take the recovery key (/recover, /two-factor/recover): one text area for
// the 24 words (or the older 64-character hex key, docs/protocol.md#recovery-key). What is wrong with a
// key (too few or too many words, a word not in the list, a wrong checksum, a key that does not open
// the account) is said next to the field; other failures in the form's alert.
import type { ParseKeys } from 'i18next';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessageKey, type AccountsErrorKind } from '../services/errors.ts';
import { AccountsForm } from './AccountsForm.tsx';
import { Field } from './Field.tsx';
import { useSubmission } from './use-submission.ts';

import '../strings.ts';

export interface RecoveryKeyFormProps {
  titleKey: ParseKeys<'accounts'>;
  intro: string;
  submitLabel: string;
  /** Uses the key as typed; returns the next route. */
  recover: (recoveryKey: string) => Promise<string | undefined>;
  links?: ReactNode;
  /** What failed, for the log. */
  what: string;
  /** A problem the page found before anything was typed, translated; shown until a submission says more. */
  notice?: string;
}

export function RecoveryKeyForm({ titleKey, intro, submitLabel, recover, links, what, notice }: RecoveryKeyFormProps) {
  const { t } = useTranslation('accounts');
  const [text, setText] = useState('');
  const [empty, setEmpty] = useState(false);
  const { busy, failure, clearFailure, run } = useSubmission(what);

  const submit = () => {
    if (!text.trim()) {
      setEmpty(true);
      return;
    }
    void run(() => recover(text));
  };

  const keyFailure = failure && keyKinds.includes(failure.kind) ? failure : undefined;
  return (
    <AccountsForm
      titleKey={titleKey}
      intro={intro}
      submitLabel={submitLabel}
      onSubmit={submit}
      busy={busy}
      error={failure ? (keyFailure ? undefined : t(errorMessageKey(failure))) : notice}
      links={links}
    >
      <Field
        autoFocus
        multiline
        minRows={3}
        label={t('form_recovery_key_label')}
        name="recoveryKey"
        autoComplete="off"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setEmpty(false);
          clearFailure();
        }}
        onKeyDown={(event) => {
          // Enter submits, as in every other field; the words need no line breaks.
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
        disabled={busy}
        inputProps={{ autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false }}
        hint={t('form_recovery_key_hint')}
        error={empty ? t('form_recovery_key_required') : keyFailure ? t(errorMessageKey(keyFailure)) : undefined}
      />
    </AccountsForm>
  );
}

/** The failures that are about the key typed, shown next to its field. */
const keyKinds: AccountsErrorKind[] = [
  'wrongRecoveryKey',
  'recoveryKeyWordCount',
  'recoveryKeyUnknownWord',
  'recoveryKeyChecksum',
  'recoveryKeyInvalid',
];
