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
import { PasswordInput } from '../components/PasswordInput.tsx';
import { PasswordStrengthHint } from '../components/PasswordStrengthHint.tsx';
import { RouteLink } from '../components/RouteLink.tsx';
import { useSignedInRedirect } from '../components/use-signed-in-redirect.ts';
import { useSubmission } from '../components/use-submission.ts';
import { confirmationProblem, emailProblem, maxReferralLength, newPasswordProblem } from '../components/validation.ts';
import { errorMessageKey } from '../services/errors.ts';

type Problems = Partial<Record<'email' | 'password' | 'confirmation', ReturnType<typeof emailProblem>>>;

export default function SignupPage() {
  const { t } = useTranslation('accounts');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [referral, setReferral] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const { busy, failure, clearFailure, run } = useSubmission('Could not sign up');
  const loggedIn = useSignedInRedirect();
  const emailField = useRef<HTMLInputElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  const confirmationField = useRef<HTMLInputElement>(null);

  const edited = (field: keyof Problems) => {
    setProblems((current) => ({ ...current, [field]: undefined }));
    clearFailure();
  };

  const submit = () => {
    const found: Problems = {
      email: emailProblem(email),
      password: newPasswordProblem(password),
      confirmation: confirmationProblem(password, confirmation),
    };
    setProblems(found);
    if (found.email || found.password || found.confirmation) {
      // Take the user to the first field that needs attention.
      (found.email ? emailField : found.password ? passwordField : confirmationField).current?.focus();
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
          edited('email');
        }}
        disabled={busy}
        inputRef={emailField}
        error={problems.email ? t(problems.email) : emailFailure ? t(errorMessageKey(emailFailure)) : undefined}
      />
      <PasswordInput
        purpose="new"
        name="password"
        label={t('form_password_label')}
        value={password}
        onChange={(value) => {
          setPassword(value);
          edited('password');
        }}
        disabled={busy}
        inputRef={passwordField}
        error={problems.password ? t(problems.password) : undefined}
      />
      <PasswordStrengthHint password={password} />
      <PasswordInput
        purpose="new"
        name="confirmPassword"
        label={t('form_confirm_password_label')}
        value={confirmation}
        onChange={(value) => {
          setConfirmation(value);
          edited('confirmation');
        }}
        disabled={busy}
        inputRef={confirmationField}
        error={problems.confirmation ? t(problems.confirmation) : undefined}
      />
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
