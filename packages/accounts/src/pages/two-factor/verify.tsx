// /two-factor/verify: the code of the authenticator app, the second step of a login for an account
// with two-factor authentication (docs/protocol.md#login, step 4). The field submits itself at the
// sixth digit; "lost your device?" leads to /two-factor/recover. An account with a passkey as well is
// asked on arrival which second factor to use, and can switch to the passkey later (the accounts app's
// check, docs/protocol.md#passkeys). Without a second-factor session in progress there is nothing to
// verify: back to /login.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { reloadAt } from '@ente/shared/app/navigation.ts';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { log } from '@ente/shared/log.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsForm } from '../../components/AccountsForm.tsx';
import { CodeInput, codeLength } from '../../components/CodeInput.tsx';
import { LinkButton, RouteLink } from '../../components/RouteLink.tsx';
import { useRedirectOnArrival } from '../../components/use-redirect-on-arrival.ts';
import { useSubmission } from '../../components/use-submission.ts';
import { errorMessageKey, isAccountsError, type AccountsErrorKind } from '../../services/errors.ts';

import '../../strings.ts';

export default function TwoFactorVerifyPage() {
  const { t } = useTranslation(['accounts', 'common']);
  const [code, setCode] = useState('');
  const [incomplete, setIncomplete] = useState(false);
  const { busy, failure, clearFailure, run } = useSubmission('Could not verify the two-factor code');
  const { showDialog } = useDialog();

  useRedirectOnArrival(() => (savedUser()?.twoFactorSessionID ? undefined : '/login'));

  // Both factors on: the person chooses once, on arrival.
  const [hasPasskey, setHasPasskey] = useState(false);
  const asked = useRef(false);
  const usePasskey = () => void run(async () => (await import('../../services/passkeys.ts')).passkeyVerificationURL());
  useEffect(() => {
    if (asked.current || !savedUser()?.twoFactorSessionID || !savedUser()?.passkeySessionID) return;
    asked.current = true;
    setHasPasskey(true);
    showDialog({
      title: t('two_factor_choose_title'),
      content: t('two_factor_choose_body'),
      proceed: { text: t('two_factor_choose_passkey'), action: usePasskey },
      close: { text: t('two_factor_choose_totp') },
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

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
      links={
        <>
          <RouteLink href="/two-factor/recover">{t('two_factor_verify_lost')}</RouteLink>
          {hasPasskey && (
            <LinkButton onClick={usePasskey} disabled={busy}>
              {t('two_factor_use_passkey')}
            </LinkButton>
          )}
        </>
      }
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
