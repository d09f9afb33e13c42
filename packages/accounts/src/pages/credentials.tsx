// /credentials: the password step (docs/protocol.md#login, step 3). It signs in with SRP on a first
// login, or unlocks the data of a returning tab from the local key attributes. Back from the second
// factor, the KEK stashed before it is used instead, and the password is not asked again: the page
// does that first, under the loading overlay. "Forgot password?" leads to /recover; "use another
// account" logs out. With nothing to unlock the page sends the visitor on (credentialsRedirect: home,
// /two-factor/verify, /generate or /login).
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { logoutAndReload } from '@ente/shared/logout-and-reload.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsForm } from '../components/AccountsForm.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { LinkButton, RouteLink } from '../components/RouteLink.tsx';
import { useSavedEmail } from '../components/use-stored.ts';
import { useSubmission } from '../components/use-submission.ts';
import { errorMessageKey, isAccountsError } from '../services/errors.ts';
import { homeRoute } from '../services/home.ts';

import '../strings.ts';

export default function CredentialsPage() {
  const { t } = useTranslation('accounts');
  const { onGenericError } = useDialog();
  const router = useRouter();
  const email = useSavedEmail();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState(false);
  // Until the arrival checks are done the overlay shows, so the form does not flash before a redirect.
  const [checking, setChecking] = useState(true);
  const [loggingOut, setLoggingOut] = useState(false);
  const { busy, failure, clearFailure, run } = useSubmission('Could not sign in with the password');
  const arrived = useRef(false);

  useEffect(() => {
    if (arrived.current) return;
    arrived.current = true;
    void run(arrive, { replace: true }).then((left) => {
      if (left) return;
      setChecking(false);
      // The home page is where the password leads; its code arrives while the password is typed.
      router.prefetch(homeRoute()).catch(() => undefined);
    });
  }, [run, router]);

  const submit = () => {
    if (!password) {
      setProblem(true);
      return;
    }
    void run(async () => (await flows()).submitPassword(password));
  };

  const switchAccount = async () => {
    setLoggingOut(true);
    await logoutAndReload(onGenericError, '/login');
  };

  if (checking) return <LoadingOverlay />;

  const passwordFailure = failure?.kind === 'incorrectPassword' ? failure : undefined;
  return (
    <AccountsForm
      titleKey="credentials_title"
      intro={email === undefined ? '\u00a0' : t('credentials_intro', { email })}
      submitLabel={t('credentials_submit')}
      onSubmit={submit}
      busy={busy || loggingOut}
      error={failure && !passwordFailure ? t(errorMessageKey(failure)) : undefined}
      links={
        <>
          <RouteLink href="/recover">{t('credentials_forgot')}</RouteLink>
          <LinkButton disabled={busy || loggingOut} onClick={() => void switchAccount()}>
            {t('credentials_other_account')}
          </LinkButton>
        </>
      }
    >
      {/* For password managers: which account the password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email ?? ''} readOnly hidden />
      <PasswordInput
        autoFocus
        purpose="current"
        name="password"
        label={t('form_password_label')}
        value={password}
        onChange={(value) => {
          setPassword(value);
          setProblem(false);
          clearFailure();
        }}
        disabled={busy || loggingOut}
        error={
          problem ? t('form_password_required') : passwordFailure ? t(errorMessageKey(passwordFailure)) : undefined
        }
      />
    </AccountsForm>
  );
}

/** What the page does on arrival: where to go instead, or undefined to ask for the password. */
async function arrive(): Promise<string | undefined> {
  // No sign-in at all: /login, as credentialsRedirect says too, without loading the flows for it.
  if (!savedUser()) return '/login';
  const login = await flows();
  switch (login.credentialsMode()) {
    case 'none':
      return login.credentialsRedirect();
    case 'stashed':
      try {
        return await login.resumeWithStashedKEK();
      } catch (e) {
        // The stashed KEK was gone after all: ask for the password.
        if (isAccountsError(e, 'sessionExpired')) return undefined;
        throw e;
      }
    case 'srp':
    case 'unlock':
      login.prepareForPassword();
      return undefined;
  }
}

/** The login flows, loaded on arrival (not with the page, which can show its overlay without them). */
const flows = () => import('../services/login.ts');
