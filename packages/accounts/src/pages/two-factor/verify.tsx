// /two-factor/verify: the code of the authenticator app, the second step of a login for an account
// with two-factor authentication (docs/protocol.md#login, step 4). The field submits itself at the
// sixth digit; "lost your device?" leads to /two-factor/recover. Without a second-factor session in
// progress there is nothing to verify: back to /login.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { reloadAt } from '@ente/shared/app/navigation.ts';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { log } from '@ente/shared/log.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsForm } from '../../components/AccountsForm.tsx';
import { CodeInput, codeLength } from '../../components/CodeInput.tsx';
import { RouteLink } from '../../components/RouteLink.tsx';
import { useRedirectOnArrival } from '../../components/use-redirect-on-arrival.ts';
import { useSubmission } from '../../components/use-submission.ts';
import { errorMessageKey, isAccountsError, type AccountsErrorKind } from '../../services/errors.ts';

export default function TwoFactorVerifyPage() {
  const { t } = useTranslation(['accounts', 'common']);
  const [code, setCode] = useState('');
  const [incomplete, setIncomplete] = useState(false);
  const { busy, failure, clearFailure, run } = useSubmission('Could not verify the two-factor code');
  const { showDialog } = useDialog();

  useRedirectOnArrival(() => (savedUser()?.twoFactorSessionID ? undefined : '/login'));

  const verify = (candidate: string) => {
    if (candidate.length < codeLength) {
      setIncomplete(true);
      return;
    }
    void run(async () => {
      try {
        return await (await import('../../services/two-factor.ts')).verifyTwoFactor(candidate);
      } catch (e) {
        setCode('');
        if (!isAccountsError(e, 'sessionExpired')) throw e;
        // The two-factor session is over (docs/protocol.md#login, step 4): sign out and start again.
        await endSignIn();
        showDialog({
          title: t('two_factor_verify_title'),
          content: t('error_sessionExpired'),
          nonClosable: true,
          close: { text: t('common:ok'), action: () => reloadAt('/login') },
        });
        return undefined;
      }
    });
  };

  const codeFailure = failure && codeKinds.includes(failure.kind) ? failure : undefined;
  return (
    <AccountsForm
      titleKey="two_factor_verify_title"
      intro={t('two_factor_verify_intro')}
      submitLabel={t('two_factor_verify_submit')}
      onSubmit={() => verify(code)}
      busy={busy}
      error={failure && !codeFailure ? t(errorMessageKey(failure)) : undefined}
      links={<RouteLink href="/two-factor/recover">{t('two_factor_verify_lost')}</RouteLink>}
    >
      <CodeInput
        autoFocus
        value={code}
        onChange={(digits) => {
          setCode(digits);
          setIncomplete(false);
          clearFailure();
        }}
        onComplete={verify}
        disabled={busy}
        error={incomplete ? t('form_code_incomplete') : codeFailure ? t(errorMessageKey(codeFailure)) : undefined}
      />
    </AccountsForm>
  );
}

/** The failures that are about the code typed, shown next to its field. */
const codeKinds: AccountsErrorKind[] = ['wrongCode', 'tooManyAttempts'];

/** Forgets the sign-in in progress; a failure to tell the server is logged (there is no token yet). */
async function endSignIn() {
  try {
    const { logout } = await import('@ente/shared/logout.ts');
    await logout();
  } catch (e) {
    log.warn('Could not end the sign-in cleanly', e);
  }
}
