// /two-factor/recover: a lost second factor (docs/protocol.md#lost-second-factor). On arrival the page
// fetches the two-factor secret the account stored, encrypted under the recovery key; if the server
// has none, a dialog says to contact support. The recovery key typed then opens the secret, which turns
// two-factor authentication off and signs in; the password step (/credentials) follows. Without a
// second-factor session in progress there is nothing to recover: back to /login.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { RecoveryKeyForm } from '../../components/RecoveryKeyForm.tsx';
import { RouteLink } from '../../components/RouteLink.tsx';
import { useRedirectOnArrival } from '../../components/use-redirect-on-arrival.ts';
import { errorMessageKey, toAccountsError, type AccountsErrorMessageKey } from '../../services/errors.ts';

export default function TwoFactorRecoverPage() {
  const { t } = useTranslation('accounts');
  const { showDialog, onGenericError } = useDialog();
  const [notice, setNotice] = useState<AccountsErrorMessageKey>();
  const started = useRef(false);

  useRedirectOnArrival(() => (savedUser()?.twoFactorSessionID ? undefined : '/login'));

  useEffect(() => {
    if (started.current || !savedUser()?.twoFactorSessionID) return;
    started.current = true;
    flows()
      .then((twoFactor) => twoFactor.recoverTwoFactorStart())
      .catch((e: unknown) => {
        const error = toAccountsError(e);
        if (error.kind === 'unknown') {
          onGenericError(e, { message: 'Could not fetch the two-factor recovery secret' });
          return;
        }
        setNotice(errorMessageKey(error));
        if (error.kind === 'twoFactorRecoveryUnavailable')
          showDialog({ title: t('two_factor_recover_title'), content: t('error_twoFactorRecoveryUnavailable') });
      });
  }, [onGenericError, showDialog, t]);

  return (
    <RecoveryKeyForm
      titleKey="two_factor_recover_title"
      intro={t('two_factor_recover_intro')}
      submitLabel={t('two_factor_recover_submit')}
      recover={async (text) => (await flows()).recoverTwoFactor(text)}
      what="Could not remove two-factor authentication"
      notice={notice && t(notice)}
      links={<RouteLink href="/two-factor/verify">{t('two_factor_recover_back')}</RouteLink>}
    />
  );
}

/** The two-factor flows, loaded on arrival. */
const flows = () => import('../../services/two-factor.ts');
