// /login: the first step of signing in (docs/protocol.md#login). The e-mail address decides the way
// on: the password (/credentials) for an account with SRP and without e-mail MFA, otherwise a code
// sent by e-mail (/verify). Someone already signed in goes to the app's home (or to /credentials to
// unlock this tab first). The page also hosts the
// hidden developer settings, and says which server it talks to when that is not the default one; the
// dialog's code is loaded only when it is first opened, to keep the page's first load small.
import Typography from '@mui/material/Typography';
import { useRouter } from 'next/router';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { log } from '@ente/shared/log.ts';
import { savedApiOrigin } from '@ente/shared/origins.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import { AccountsForm } from '../components/AccountsForm.tsx';
import { EmailInput } from '../components/EmailInput.tsx';
import { RouteLink } from '../components/RouteLink.tsx';
import { useDevSettingsTrigger } from '../components/use-dev-settings-trigger.ts';
import { useSignedInRedirect } from '../components/use-signed-in-redirect.ts';
import { useSubmission } from '../components/use-submission.ts';
import { emailProblem } from '../components/validation.ts';
import { errorMessageKey } from '../services/errors.ts';

import '../strings.ts';

export default function LoginPage() {
  const { t } = useTranslation('accounts');
  const devSettings = useDevSettingsTrigger();
  const [customOrigin, setCustomOrigin] = useState<string | undefined>();
  // Back from /verify to change the address: start from the one given before.
  const [email, setEmail] = useState(() => savedUser()?.email ?? '');
  const [problem, setProblem] = useState<ReturnType<typeof emailProblem>>();
  const { busy, failure, clearFailure, run } = useSubmission('Could not start the login');
  const loggedIn = useSignedInRedirect();
  const router = useRouter();
  const prepared = useRef(false);

  // At the first character typed (never in the first load): the login flow, its requests and the
  // password page, so that submitting the address waits only for the server.
  const prepare = () => {
    if (prepared.current) return;
    prepared.current = true;
    loginFlow()
      .then((login) => login.prepareLogin())
      .catch(() => undefined);
    router.prefetch('/credentials').catch(() => undefined);
  };

  useEffect(() => {
    if (isLoggedIn()) return;
    savedApiOrigin().then(setCustomOrigin, (e: unknown) => log.warn('Could not read the stored API origin', e));
  }, []);

  const submit = () => {
    const found = emailProblem(email);
    setProblem(found);
    if (found) return;
    void run(async () => (await loginFlow()).startLogin(email));
  };

  // Signed in already: on the way home.
  if (loggedIn) return <LoadingOverlay />;

  const emailFailure = failure?.kind === 'notRegistered' ? failure : undefined;
  return (
    <AccountsForm
      titleKey="login_title"
      intro={t('login_intro')}
      submitLabel={t('login_submit')}
      onSubmit={submit}
      busy={busy}
      error={failure && !emailFailure ? t(errorMessageKey(failure)) : undefined}
      onClick={devSettings.onPageClick}
      links={
        <>
          <RouteLink href="/signup">{t('login_signup_link')}</RouteLink>
          {customOrigin && (
            <Typography variant="body2" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
              {t('dev_settings_current_origin', { origin: customOrigin })}
            </Typography>
          )}
          {/* Outside the form: React sends the dialog's own submit event up to its parents. */}
          {devSettings.wanted && (
            <Suspense fallback={null}>
              <DevSettingsDialog open={devSettings.open} onClose={devSettings.close} onSaved={setCustomOrigin} />
            </Suspense>
          )}
        </>
      }
    >
      <EmailInput
        autoFocus
        value={email}
        onChange={(value) => {
          prepare();
          setEmail(value);
          setProblem(undefined);
          clearFailure();
        }}
        disabled={busy}
        error={problem ? t(problem) : emailFailure ? t(errorMessageKey(emailFailure)) : undefined}
      />
    </AccountsForm>
  );
}

const DevSettingsDialog = lazy(() =>
  import('../components/DevSettingsDialog.tsx').then((module) => ({ default: module.DevSettingsDialog })),
);

const loginFlow = () => import('../services/login.ts');
