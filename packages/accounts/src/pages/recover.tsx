// /recover: a forgotten password (docs/protocol.md#forgot-password). Before the key can be used the
// account's keys must be here: without a token yet, the page asks for an e-mail code (and comes back
// here after /verify and any second factor). Then the recovery key opens the master key, and the user
// chooses a new password at /change-password?op=reset. If the code cannot be sent, the page says why
// and offers to try again.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsForm } from '../components/AccountsForm.tsx';
import { RecoveryKeyForm } from '../components/RecoveryKeyForm.tsx';
import { RouteLink } from '../components/RouteLink.tsx';
import { useSubmission } from '../components/use-submission.ts';
import { errorMessageKey } from '../services/errors.ts';

import '../strings.ts';

export default function RecoverPage() {
  const { t } = useTranslation('accounts');
  const [checking, setChecking] = useState(true);
  const { busy, failure, run } = useSubmission('Could not prepare the account recovery');
  const arrived = useRef(false);

  const prepare = (replace: boolean) =>
    run(
      // No address to recover: /login, as startAccountRecovery says too, without loading the flows for it.
      async () => (savedUser()?.email ? (await flows()).startAccountRecovery() : '/login'),
      { replace },
    ).then((left) => {
      if (!left) setChecking(false);
    });

  useEffect(() => {
    if (arrived.current) return;
    arrived.current = true;
    void prepare(true);
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const back = <RouteLink href="/login">{t('recover_back')}</RouteLink>;
  if (checking) return <LoadingOverlay />;
  if (failure)
    return (
      <AccountsForm
        titleKey="recover_title"
        intro={t('recover_intro')}
        submitLabel={t('recover_retry')}
        onSubmit={() => void prepare(false)}
        busy={busy}
        error={t(errorMessageKey(failure))}
        links={back}
      >
        {null}
      </AccountsForm>
    );
  return (
    <RecoveryKeyForm
      titleKey="recover_title"
      intro={t('recover_intro')}
      submitLabel={t('recover_submit')}
      recover={async (text) => (await flows()).recoverAccount(text)}
      what="Could not recover the account"
      links={back}
    />
  );
}

/** The recovery flows, loaded on arrival. */
const flows = () => import('../services/recover.ts');
