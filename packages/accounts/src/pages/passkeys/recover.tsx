// /passkeys/recover: signing in without the passkey (docs/protocol.md#passkeys), reached from the
// accounts app's check. On arrival the page fetches the passkey recovery secret the account stored,
// encrypted under the recovery key; if there is none, a dialog says to contact support. The recovery key
// typed then opens it and signs in; the passkeys stay, and the password step (/credentials) follows.
// Without a passkey session in progress there is nothing to recover: back to /login.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { RecoveryKeyForm } from '../../components/RecoveryKeyForm.tsx';
import { useRedirectOnArrival } from '../../components/use-redirect-on-arrival.ts';
import { errorMessageKey, toAccountsError, type AccountsErrorMessageKey } from '../../services/errors.ts';

export default function PasskeyRecoverPage() {
  const { t } = useTranslation('accounts');
  const { showDialog, onGenericError } = useDialog();
  const [notice, setNotice] = useState<AccountsErrorMessageKey>();
  const started = useRef(false);

  useRedirectOnArrival(() => (savedUser()?.passkeySessionID ? undefined : '/login'));

  useEffect(() => {
    if (started.current || !savedUser()?.passkeySessionID) return;
    started.current = true;
    flows()
      .then((twoFactor) => twoFactor.recoverTwoFactorStart('passkey'))
      .catch((e: unknown) => {
        const error = toAccountsError(e);
        if (error.kind === 'unknown') {
          onGenericError(e, { message: 'Could not fetch the passkey recovery secret' });
          return;
        }
        setNotice(errorMessageKey(error));
        if (error.kind === 'twoFactorRecoveryUnavailable')
          showDialog({ title: t('passkey_recover_title'), content: t('error_twoFactorRecoveryUnavailable') });
      });
  }, [onGenericError, showDialog, t]);

  return (
    <RecoveryKeyForm
      titleKey="passkey_recover_title"
      intro={t('passkey_recover_intro')}
      submitLabel={t('two_factor_recover_submit')}
      recover={async (text) => (await flows()).recoverTwoFactor(text, 'passkey')}
      what="Could not sign in without the passkey"
      notice={notice && t(notice)}
    />
  );
}

/** The second-factor flows, loaded on arrival. */
const flows = () => import('../../services/two-factor.ts');
