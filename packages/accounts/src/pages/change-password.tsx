// /change-password: a new password for the signed-in, unlocked account (docs/protocol.md#change-password).
// `?op=reset` is the same page at the end of a forgotten password (docs/protocol.md#forgot-password):
// /recover unlocked the masterKey with the recovery key, and the new password wraps it. The new
// password needs at least 8 characters and its confirmation; the strength hint is advice only. The
// derivation takes seconds in the crypto worker while the button shows it is working; the other
// devices are signed out by the server, this one goes to the app's home.
import Typography from '@mui/material/Typography';
import { useRouter } from 'next/router';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';

import { AccountsForm } from '../components/AccountsForm.tsx';
import { NewPasswordFields, useNewPassword } from '../components/NewPasswordFields.tsx';
import { useSubmission } from '../components/use-submission.ts';
import { errorMessageKey } from '../services/errors.ts';
import { homeRoute } from '../services/home.ts';
import { useAccountGuard } from '../settings/use-account-guard.ts';

import '../strings.ts';

export default function ChangePasswordPage() {
  const { t } = useTranslation('accounts');
  const router = useRouter();
  const account = useAccountGuard('unlocked');
  const { busy, failure, clearFailure, run } = useSubmission('Could not change the password');
  const newPassword = useNewPassword(clearFailure);
  const reset = router.query.op === 'reset';

  if (!account) return <LoadingOverlay />;

  const submit = () => {
    const { password } = newPassword;
    const firstProblem = newPassword.check();
    if (firstProblem) {
      firstProblem.current?.focus();
      return;
    }
    void run(async () => {
      const { changePassword } = await import('../services/account-password.ts');
      await changePassword(password, account.masterKey);
      return homeRoute();
    });
  };

  return (
    <AccountsForm
      titleKey={reset ? 'change_password_reset_title' : 'change_password_title'}
      intro={t('change_password_intro')}
      submitLabel={t('change_password_submit')}
      onSubmit={submit}
      busy={busy}
      error={failure && t(errorMessageKey(failure))}
    >
      <NewPasswordFields
        state={newPassword}
        disabled={busy}
        autoFocus
        labels={{ password: 'change_password_new_label', confirmation: 'change_password_confirm_label' }}
      />
      <Typography role="status" variant="body2" sx={{ mb: 1, color: 'text.secondary' }}>
        {busy ? t('change_password_working') : ''}
      </Typography>
    </AccountsForm>
  );
}
