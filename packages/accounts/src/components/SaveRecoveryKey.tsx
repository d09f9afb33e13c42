// The recovery key screen at the end of sign-up (/generate): the 24 words, the box that says they were
// saved, and Continue to the app's home (docs/protocol.md#sign-up, step 6). Loaded by /generate only
// when it has words to show.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorMessageKey } from '../services/errors.ts';
import { AccountsForm } from './AccountsForm.tsx';
import { RecoveryWords } from './RecoveryWords.tsx';
import { useSubmission } from './use-submission.ts';

import '../strings.ts';

/** The recovery words, a box to tick, and the way on. */
export function SaveRecoveryKey({ words }: { words: string }) {
  const { t } = useTranslation('accounts');
  const [saved, setSaved] = useState(false);
  const { busy, failure, run } = useSubmission('Could not finish the sign-up');
  return (
    <AccountsForm
      titleKey="generate_recovery_title"
      intro={t('generate_recovery_intro')}
      submitLabel={t('generate_continue')}
      onSubmit={() => void run(async () => (await import('../services/sign-up.ts')).acknowledgeRecoveryKey())}
      busy={busy}
      submitDisabled={!saved}
      error={failure ? t(errorMessageKey(failure)) : undefined}
    >
      <RecoveryWords words={words} saved={saved} onSavedChange={setSaved} disabled={busy} />
    </AccountsForm>
  );
}
