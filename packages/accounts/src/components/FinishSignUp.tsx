// The password form of /generate for a sign-up that was interrupted after the e-mail check (a token,
// no keys yet; docs/protocol.md#sign-up, step 6): the password and its confirmation, checked as at
// sign-up, then the keys are made and uploaded and `onDone` gets the recovery words. Loaded by
// /generate only when it is needed.
import { useTranslation } from 'react-i18next';

import { errorMessageKey } from '../services/errors.ts';
import { AccountsForm } from './AccountsForm.tsx';
import { NewPasswordFields, useNewPassword } from './NewPasswordFields.tsx';
import { useSubmission } from './use-submission.ts';

import '../strings.ts';

/** The password of an interrupted sign-up; once the keys are made, their recovery words. */
export function FinishSignUp({ onDone }: { onDone: (words: string) => void }) {
  const { t } = useTranslation('accounts');
  const { busy, failure, clearFailure, run } = useSubmission('Could not finish the sign-up');
  const newPassword = useNewPassword(clearFailure);

  const submit = () => {
    const { password } = newPassword;
    const firstProblem = newPassword.check();
    if (firstProblem) {
      firstProblem.current?.focus();
      return;
    }
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
      <NewPasswordFields state={newPassword} disabled={busy} autoFocus />
    </AccountsForm>
  );
}
