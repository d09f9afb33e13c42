// /verify: the code sent by e-mail, at sign-up and for logins without a password step
// (docs/protocol.md#sign-up, docs/protocol.md#login). The field submits itself at the sixth digit. A
// new code may be asked for after a cool-down; "change e-mail address" goes back to the form the
// address came from. Without an address in progress there is nothing to verify: back to /login.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { savedJustSignedUp } from '@ente/shared/storage/account-storage.ts';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { AccountsForm } from '../components/AccountsForm.tsx';
import { CodeInput, codeLength } from '../components/CodeInput.tsx';
import { LinkButton, RouteLink } from '../components/RouteLink.tsx';
import { useCoolDown } from '../components/use-cool-down.ts';
import { useRedirectOnArrival } from '../components/use-redirect-on-arrival.ts';
import { useStored } from '../components/use-stored.ts';
import { useSubmission } from '../components/use-submission.ts';
import { errorMessageKey, type AccountsErrorKind } from '../services/errors.ts';

import '../strings.ts';

/** How long to wait before another code may be asked for, in seconds. */
export const resendCoolDownSeconds = 30;

export default function VerifyPage() {
  const { t } = useTranslation('accounts');
  const email = useStored(codeRecipient, undefined);
  const [code, setCode] = useState('');
  const [incomplete, setIncomplete] = useState(false);
  const [resent, setResent] = useState(false);
  const verification = useSubmission('Could not verify the e-mail code');
  const resending = useSubmission('Could not send a new code');
  // A code was sent just before this page opened.
  const coolDown = useCoolDown(resendCoolDownSeconds, { startNow: true });
  const changeEmailRoute = useStored(() => (savedJustSignedUp() ? '/signup' : '/login'), '/login');

  useRedirectOnArrival(() => (codeRecipient() === undefined ? '/login' : undefined));

  const verify = (candidate: string) => {
    if (candidate.length < codeLength) {
      setIncomplete(true);
      return;
    }
    setResent(false);
    resending.clearFailure();
    void verification.run(async () => {
      try {
        return await (await flows()).verifyEmail(candidate);
      } catch (e) {
        // The next attempt starts from an empty field.
        setCode('');
        throw e;
      }
    });
  };

  const resend = () => {
    setResent(false);
    verification.clearFailure();
    void resending.run(async () => {
      await (await flows()).resendCode();
      coolDown.start();
      setResent(true);
    });
  };

  const { failure } = verification;
  const codeFailure = failure && codeKinds.includes(failure.kind) ? failure : undefined;
  const formFailure = (failure && !codeFailure ? failure : undefined) ?? resending.failure;
  const busy = verification.busy || resending.busy;
  return (
    <AccountsForm
      titleKey="verify_title"
      intro={email === undefined ? '\u00a0' : t('verify_intro', { email })}
      submitLabel={t('verify_submit')}
      onSubmit={() => verify(code)}
      busy={verification.busy}
      error={formFailure ? t(errorMessageKey(formFailure)) : undefined}
      links={
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <LinkButton onClick={resend} disabled={busy || coolDown.remaining > 0}>
              {coolDown.remaining > 0 ? t('verify_resend_wait', { seconds: coolDown.remaining }) : t('verify_resend')}
            </LinkButton>
            <Typography role="status" variant="body2" sx={{ color: 'text.secondary' }}>
              {resent ? t('verify_resent') : ''}
            </Typography>
          </Box>
          {changeEmailRoute === '/login' ? (
            // The server answers a login for an address without an account as it answers any other,
            // and sends nothing (docs/protocol.md#e-mail-codes): say so, for whoever waits in vain.
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('verify_login_hint')}
            </Typography>
          ) : null}
          <RouteLink href={changeEmailRoute}>{t('verify_change_email')}</RouteLink>
        </>
      }
    >
      <CodeInput
        autoFocus
        value={code}
        onChange={(digits) => {
          setCode(digits);
          setIncomplete(false);
          verification.clearFailure();
        }}
        onComplete={verify}
        disabled={busy}
        error={incomplete ? t('form_code_incomplete') : codeFailure ? t(errorMessageKey(codeFailure)) : undefined}
      />
    </AccountsForm>
  );
}

/** The flows of this page, loaded when first used: showing the page does not need them. */
const flows = () => import('../services/verify.ts');

/** The address the code went to (as `codeRecipient` of the flows says, without loading them). */
const codeRecipient = () => savedUser()?.email;

/** The failures that are about the code typed, shown next to its field. */
const codeKinds: AccountsErrorKind[] = ['wrongCode', 'expiredCode', 'tooManyAttempts'];
