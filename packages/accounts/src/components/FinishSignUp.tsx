// The password form of /generate for a sign-up that was interrupted after the e-mail check (a token,
// no keys yet; docs/protocol.md#sign-up, step 6): the password and its confirmation, checked as at
// sign-up, then the keys are made and uploaded and `onDone` gets the recovery words. Loaded by
// /generate only when it is needed.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessageKey } from '../services/errors.ts';
import { AccountsForm } from './AccountsForm.tsx';
import { PasswordInput } from './PasswordInput.tsx';
import { PasswordStrengthHint } from './PasswordStrengthHint.tsx';
import { useSubmission } from './use-submission.ts';
import { confirmationProblem, newPasswordProblem } from './validation.ts';

/** The password of an interrupted sign-up; once the keys are made, their recovery words. */
export function FinishSignUp({ onDone }: { onDone: (words: string) => void }) {
  const { t } = useTranslation('accounts');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problems, setProblems] = useState<{ password?: string; confirmation?: string }>({});
  const { busy, failure, clearFailure, run } = useSubmission('Could not finish the sign-up');

  const submit = () => {
    const passwordProblem = newPasswordProblem(password);
    const mismatch = confirmationProblem(password, confirmation);
    setProblems({
      password: passwordProblem && t(passwordProblem),
      confirmation: mismatch && t(mismatch),
    });
    if (passwordProblem || mismatch) return;
    void run(async () => {
      const signUp = await import('../services/sign-up.ts');
      // It leads back to /generate, which now has the words to show.
      await signUp.finishInterruptedSignUp(password);
      onDone(await signUp.recoveryKeyWordsOfThisTab());
    });
  };

  return (
    <AccountsForm
      titleKey="generate_title"
      intro={t('generate_password_intro')}
      submitLabel={t('generate_password_submit')}
      onSubmit={submit}
      busy={busy}
      error={failure ? t(errorMessageKey(failure)) : undefined}
    >
      <PasswordInput
        autoFocus
        purpose="new"
        name="password"
        label={t('form_password_label')}
        value={password}
        onChange={(value) => {
          setPassword(value);
          setProblems((current) => ({ ...current, password: undefined }));
          clearFailure();
        }}
        disabled={busy}
        error={problems.password}
      />
      <PasswordStrengthHint password={password} />
      <PasswordInput
        purpose="new"
        name="confirmPassword"
        label={t('form_confirm_password_label')}
        value={confirmation}
        onChange={(value) => {
          setConfirmation(value);
          setProblems((current) => ({ ...current, confirmation: undefined }));
          clearFailure();
        }}
        disabled={busy}
        error={problems.confirmation}
      />
    </AccountsForm>
  );
}
