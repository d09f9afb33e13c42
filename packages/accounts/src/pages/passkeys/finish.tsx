// /passkeys/finish: where the accounts app sends the person back after the passkey check
// (docs/protocol.md#passkeys), with `passkeySessionID` and `response` in the query. The answer is kept as
// after a TOTP code and the sign-in goes on at /credentials; an answer for a session this tab did not
// start goes home; a missing or damaged one says so, with a button back to the login.
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useRouter } from 'next/router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LazyAlert } from '@ente/shared/components/LazyAlert.tsx';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';

import { AccountsPage } from '../../components/AccountsPage.tsx';

import '../../strings.ts';

export default function PasskeysFinishPage() {
  const { t } = useTranslation('accounts');
  const router = useRouter();
  const { onGenericError } = useDialog();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (!router.isReady || started.current) return;
    started.current = true;
    const param = (name: string) => (typeof router.query[name] === 'string' ? router.query[name] : undefined);
    import('../../services/passkeys.ts')
      .then((passkeys) => passkeys.finishPasskeyVerification(param('passkeySessionID'), param('response')))
      .then(async (outcome) => {
        if ('route' in outcome) await router.replace(outcome.route);
        else if (outcome.problem === 'otherSession') await router.replace('/');
        else setFailed(true);
      })
      .catch((e: unknown) => {
        setFailed(true);
        onGenericError(e, { message: 'Could not finish the passkey sign-in' });
      });
  }, [onGenericError, router]);

  return (
    <AccountsPage titleKey="passkey_finish_title">
      {failed ? (
        <>
          <LazyAlert severity="error" sx={{ mb: 2 }}>
            {t('passkey_finish_failed')}
          </LazyAlert>
          {/* A fresh page: nothing of the failed sign-in stays in memory. */}
          <Button variant="contained" href="/login">
            {t('passkey_finish_back')}
          </Button>
        </>
      ) : (
        <CircularProgress aria-label={t('passkey_finish_title')} />
      )}
    </AccountsPage>
  );
}
