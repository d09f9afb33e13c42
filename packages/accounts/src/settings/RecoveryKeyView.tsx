// The recovery key again, inside the settings: the password is typed once more (it opens the
// masterKey with this device's key attributes, services/account-recovery-key.ts), then the 24 words
// show with the same copy and download buttons as after sign-up.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';
import { log } from '@ente/shared/log.ts';

import { PasswordInput } from '../components/PasswordInput.tsx';
import { RecoveryWords } from '../components/RecoveryWords.tsx';
import { recoveryWordsWithPassword } from '../services/account-recovery-key.ts';
import { errorMessageKey, isAccountsError, type AccountsErrorMessageKey } from '../services/errors.ts';

import '../strings.ts';

export function RecoveryKeyView() {
  const { t } = useTranslation('accounts');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<AccountsErrorMessageKey>();
  const [busy, setBusy] = useState(false);
  const [words, setWords] = useState<string[]>();

  if (words) {
    return (
      <Box sx={{ p: 2 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {t('settings_recovery_key_shown')}
        </Typography>
        <RecoveryWords words={words.join(' ')} />
      </Box>
    );
  }

  const submit = async () => {
    if (password === '') {
      setProblem('error_incorrectPassword');
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      setWords(await recoveryWordsWithPassword(password));
      setPassword('');
    } catch (e) {
      if (isAccountsError(e, 'unknown')) log.error('Could not open the recovery key', e);
      setProblem(errorMessageKey(e));
    }
    setBusy(false);
  };

  return (
    <Box
      component="form"
      noValidate
      sx={{ p: 2 }}
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) void submit();
      }}
    >
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('settings_recovery_key_intro')}
      </Typography>
      <PasswordInput
        purpose="current"
        label={t('settings_recovery_key_password')}
        autoFocus
        value={password}
        onChange={(value) => {
          setPassword(value);
          setProblem(undefined);
        }}
        disabled={busy}
        error={problem && t(problem)}
      />
      <LoadingButton type="submit" variant="contained" fullWidth loading={busy} sx={{ mt: 1 }}>
        {t('settings_recovery_key_show')}
      </LoadingButton>
    </Box>
  );
}
