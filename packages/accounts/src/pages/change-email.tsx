// /change-email: moves the signed-in account to a new address (docs/protocol.md#change-e-mail). First
// the new address, to which the server sends a code (purpose `change`); then that code, which submits
// itself at the sixth digit. Every failure has its own message: an address already in use, a wrong or
// expired code, too many attempts, the rate limit. Success keeps the new address in the stored user
// record and goes to the app's home.
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ParseKeys } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';

import { AccountsForm } from '../components/AccountsForm.tsx';
import { CodeInput, codeLength } from '../components/CodeInput.tsx';
import { EmailInput } from '../components/EmailInput.tsx';
import { useSubmission } from '../components/use-submission.ts';
import { emailProblem, normalizeEmail } from '../components/validation.ts';
import { errorMessageKey } from '../services/errors.ts';
import { homeRoute } from '../services/home.ts';
import { useAccountGuard } from '../settings/use-account-guard.ts';

import '../strings.ts';

export default function ChangeEmailPage() {
  const account = useAccountGuard('signedIn');
  const [sentTo, setSentTo] = useState<string>();

  if (!account) return <LoadingOverlay />;
  return sentTo === undefined ? (
    <NewAddressForm currentEmail={account.email} onSent={setSentTo} />
  ) : (
    <CodeForm newEmail={sentTo} onChangeAddress={() => setSentTo(undefined)} />
  );
}

function NewAddressForm({ currentEmail, onSent }: { currentEmail: string; onSent: (email: string) => void }) {
  const { t } = useTranslation('accounts');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<ParseKeys<'accounts'>>();
  const { busy, failure, clearFailure, run } = useSubmission('Could not send a code to the new address');

  const submit = () => {
    const email = normalizeEmail(text);
    const found = emailProblem(text) ?? (email === currentEmail ? 'change_email_same' : undefined);
    setProblem(found);
    if (found) return;
    void run(async () => {
      await (await emailService()).sendChangeEmailCode(email);
      onSent(email);
    });
  };

  // An address in use is a problem of the field; anything else (the rate limit, the network) of the form.
  const takenFailure = failure?.kind === 'emailTaken' ? failure : undefined;
  const shown = problem ?? (takenFailure && errorMessageKey(takenFailure));
  const formFailure = takenFailure ? undefined : failure;
  return (
    <AccountsForm
      titleKey="change_email_title"
      intro={t('change_email_intro', { email: currentEmail })}
      submitLabel={t('change_email_send_code')}
      onSubmit={submit}
      busy={busy}
      error={formFailure && t(errorMessageKey(formFailure))}
    >
      <EmailInput
        label={t('change_email_new_label')}
        autoFocus
        value={text}
        onChange={(value) => {
          setText(value);
          setProblem(undefined);
          clearFailure();
        }}
        disabled={busy}
        error={shown && t(shown)}
      />
    </AccountsForm>
  );
}

function CodeForm({ newEmail, onChangeAddress }: { newEmail: string; onChangeAddress: () => void }) {
  const { t } = useTranslation('accounts');
  const [code, setCode] = useState('');
  const [incomplete, setIncomplete] = useState(false);
  const [resent, setResent] = useState(false);
  const submission = useSubmission('Could not change the e-mail address');
  const resending = useSubmission('Could not send the code again');
  const busy = submission.busy || resending.busy;

  const submit = (digits: string) => {
    setIncomplete(digits.length !== codeLength);
    if (digits.length !== codeLength) return;
    setResent(false);
    resending.clearFailure();
    void submission.run(async () => {
      try {
        await (await emailService()).changeEmail(newEmail, digits);
      } catch (e) {
        // The code is cleared for the next attempt; its problem shows on the field.
        setCode('');
        throw e;
      }
      return homeRoute();
    });
  };

  const resend = () => {
    setResent(false);
    submission.clearFailure();
    void resending.run(async () => {
      await (await emailService()).sendChangeEmailCode(newEmail);
      setResent(true);
    });
  };

  // A problem with the code belongs to its field, anything else to the form.
  const codeFailure = submission.failure && ['wrongCode', 'expiredCode'].includes(submission.failure.kind);
  const formFailure = (codeFailure ? undefined : submission.failure) ?? resending.failure;
  const codeProblem = incomplete
    ? t('form_code_incomplete')
    : codeFailure && submission.failure
      ? t(errorMessageKey(submission.failure))
      : undefined;

  return (
    <AccountsForm
      titleKey="change_email_code_title"
      intro={t('change_email_code_intro', { email: newEmail })}
      submitLabel={t('change_email_submit')}
      onSubmit={() => submit(code)}
      busy={busy}
      error={formFailure && t(errorMessageKey(formFailure))}
      links={
        <>
          <Button variant="text" onClick={resend} disabled={busy}>
            {t('change_email_resend')}
          </Button>
          <Button variant="text" onClick={onChangeAddress} disabled={busy}>
            {t('change_email_other_address')}
          </Button>
        </>
      }
    >
      <CodeInput
        autoFocus
        value={code}
        onChange={(digits) => {
          setCode(digits);
          setIncomplete(false);
          setResent(false);
          submission.clearFailure();
        }}
        onComplete={submit}
        disabled={busy}
        error={codeProblem}
      />
      <Typography role="status" variant="body2" sx={{ mb: 1, color: 'text.secondary' }}>
        {resent ? t('change_email_resent', { email: newEmail }) : ''}
      </Typography>
    </AccountsForm>
  );
}

// The requests (and with them the HTTP client and zod) load on first use, not with the page.
function emailService() {
  return import('../services/account-email.ts');
}
