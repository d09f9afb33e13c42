// /signup: creating an account (docs/protocol.md#sign-up). The form checks the address, a password of
// at least 8 characters and its confirmation, each next to its field; a strength hint (loaded when the
// first character is typed) advises on the password. Submitting asks the server for a code, makes the
// keys in the crypto worker and goes on to /verify. Someone signed in already goes where /login would
// send them.
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';

import { AccountsForm } from '../components/AccountsForm.tsx';
import { EmailInput } from '../components/EmailInput.tsx';
import { Field } from '../components/Field.tsx';
import { NewPasswordFields, useNewPassword } from '../components/NewPasswordFields.tsx';
import { RouteLink } from '../components/RouteLink.tsx';
import { useSignedInRedirect } from '../components/use-signed-in-redirect.ts';
import { useSubmission } from '../components/use-submission.ts';
import { emailProblem, maxReferralLength } from '../components/validation.ts';
import { errorMessageKey } from '../services/errors.ts';

import '../strings.ts';

export default function SignupPage() {
  const { t } = useTranslation('accounts');
  const [email, setEmail] = useState('');
  const [referral, setReferral] = useState('');
  const [problem, setProblem] = useState<ReturnType<typeof emailProblem>>();
  const { busy, failure, clearFailure, run } = useSubmission('Could not sign up');
  const newPassword = useNewPassword(clearFailure);
  const loggedIn = useSignedInRedirect();
  const emailField = useRef<HTMLInputElement>(null);

  const submit = () => {
    const { password } = newPassword;
    const found = emailProblem(email);
    setProblem(found);
    const passwordField = newPassword.check();
    if (found || passwordField) {
      // Take the user to the first field that needs attention.
      (found ? emailField : passwordField)?.current?.focus();
      return;
    }
    void run(async () => (await import('../services/sign-up.ts')).signUp({ email, password, referral }));
  };

  // Signed in already: on the way home.
  if (loggedIn) return <LoadingOverlay />;

  const emailFailure = failure?.kind === 'alreadyRegistered' ? failure : undefined;
  return (
    <AccountsForm
      titleKey="signup_title"
      intro={t('signup_intro')}
      submitLabel={t('signup_submit')}
      onSubmit={submit}
      busy={busy}
      error={failure && !emailFailure ? t(errorMessageKey(failure)) : undefined}
      links={<RouteLink href="/login">{t('signup_login_link')}</RouteLink>}
    >
      <EmailInput
        autoFocus
        value={email}
        onChange={(value) => {
          setEmail(value);
          setProblem(undefined);
          clearFailure();
        }}
        disabled={busy}
        inputRef={emailField}
        error={problem ? t(problem) : emailFailure ? t(errorMessageKey(emailFailure)) : undefined}
      />
      <NewPasswordFields state={newPassword} disabled={busy} />
      <Field
        label={t('signup_referral_label')}
        name="referral"
        autoComplete="off"
        value={referral}
        onChange={(event) => setReferral(event.target.value)}
        disabled={busy}
        inputProps={{ maxLength: maxReferralLength }}
      />
    </AccountsForm>
  );
}
