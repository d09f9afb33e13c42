// /generate: the end of sign-up (docs/protocol.md#sign-up, step 6). Right after the e-mail was
// verified it shows the recovery key as 24 words, to be saved and acknowledged before the app's home
// opens. A sign-up that was interrupted (a token but no keys yet) first asks for the password that
// will encrypt the data, makes the keys, and then shows the words the same way. Anyone else has
// nothing to do here: the app's home when signed in, /login otherwise.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { isLoggedIn } from '@ente/shared/storage/user.ts';

import { FormAlert } from '../components/AccountsForm.tsx';
import { AccountsPage } from '../components/AccountsPage.tsx';
import { useSubmission } from '../components/use-submission.ts';
import { errorMessageKey, type AccountsErrorMessageKey } from '../services/errors.ts';

import '../strings.ts';

export default function GeneratePage() {
  const [words, setWords] = useState<string>();
  const [needsPassword, setNeedsPassword] = useState(false);
  const { failure, run } = useSubmission('Could not show the recovery key');
  const arrived = useRef(false);

  useEffect(() => {
    if (arrived.current) return;
    arrived.current = true;
    void run(
      async () => {
        // Signed out: /login, as generateRedirect says too, without loading the flows for it.
        if (!isLoggedIn()) return '/login';
        const signUp = await import('../services/sign-up.ts');
        switch (signUp.generateMode()) {
          case 'none':
            return signUp.generateRedirect();
          case 'password':
            setNeedsPassword(true);
            return undefined;
          case 'recoveryKey':
            setWords(await signUp.recoveryKeyWordsOfThisTab());
            return undefined;
        }
      },
      { replace: true },
    );
  }, [run]);

  if (failure && words === undefined && !needsPassword) return <Failure messageKey={errorMessageKey(failure)} />;
  return (
    // The two views load only when the page knows which one it needs.
    <Suspense fallback={<LoadingOverlay />}>
      {words !== undefined ? (
        <SaveRecoveryKey words={words} />
      ) : needsPassword ? (
        <FinishSignUp onDone={setWords} />
      ) : (
        <LoadingOverlay />
      )}
    </Suspense>
  );
}

const SaveRecoveryKey = lazy(() =>
  import('../components/SaveRecoveryKey.tsx').then((module) => ({ default: module.SaveRecoveryKey })),
);
const FinishSignUp = lazy(() =>
  import('../components/FinishSignUp.tsx').then((module) => ({ default: module.FinishSignUp })),
);

/** The words could not be shown. */
function Failure({ messageKey }: { messageKey: AccountsErrorMessageKey }) {
  const { t } = useTranslation('accounts');
  return (
    <AccountsPage titleKey="generate_recovery_title">
      <FormAlert message={t(messageKey)} />
    </AccountsPage>
  );
}
