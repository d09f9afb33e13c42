// /two-factor/setup: turns on two-factor authentication for the signed-in, unlocked account
// (docs/protocol.md#two-factor). The server makes a pending secret; this page draws the otpauth URI
// as a QR code in the browser (the QR library loads here, on demand) and shows the secret as text to
// copy, for an authenticator app that cannot scan. The app's 6-digit code submits itself and turns
// two-factor on, with the secret stored encrypted under the recovery key
// (services/account-two-factor.ts). Success says so and goes to the app's home.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { CopyGlyph } from '@ente/shared/components/line-glyphs.tsx';
import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { log } from '@ente/shared/log.ts';

import { AccountsForm } from '../../components/AccountsForm.tsx';
import { CodeInput, codeLength } from '../../components/CodeInput.tsx';
import { useSubmission } from '../../components/use-submission.ts';
import { errorMessageKey, toAccountsError, type AccountsError } from '../../services/errors.ts';
import { homeRoute } from '../../services/home.ts';
import { tryQrCodeDataURL } from '../../settings/qr-code.ts';
import { useAccountGuard, type UnlockedAccount } from '../../settings/use-account-guard.ts';

import '../../strings.ts';

export default function TwoFactorSetupPage() {
  const account = useAccountGuard('unlocked');
  if (!account) return <LoadingOverlay />;
  return <SetupForm account={account} />;
}

function SetupForm({ account }: { account: UnlockedAccount }) {
  const { t } = useTranslation('accounts');
  const { showDialog } = useDialog();
  const [secretCode, setSecretCode] = useState<string>();
  // The QR code of the secret: undefined while it is drawn, null when it could not be drawn.
  const [qrCode, setQrCode] = useState<{ secretCode: string; image: string | null }>();
  const [setupFailure, setSetupFailure] = useState<AccountsError>();
  const [attempt, setAttempt] = useState(0);
  const [code, setCode] = useState('');
  const [incomplete, setIncomplete] = useState(false);
  const { busy, failure, clearFailure, run } = useSubmission('Could not turn two-factor authentication on');

  // A new pending secret, on arrival and on each retry. An answer that arrives after the page left
  // changes nothing.
  useEffect(() => {
    let current = true;
    twoFactorService()
      .then((service) => service.startTwoFactorSetup())
      .then(
        (secret) => {
          if (current) setSecretCode(secret);
        },
        (e: unknown) => {
          if (!current) return;
          const error = toAccountsError(e);
          if (error.kind === 'unknown') log.error('Could not start the two-factor setup', e);
          setSetupFailure(error);
        },
      );
    return () => {
      current = false;
    };
  }, [attempt]);

  useEffect(() => {
    if (secretCode === undefined) return;
    let current = true;
    void twoFactorService()
      .then((service) => tryQrCodeDataURL(service.twoFactorURI(account.email, secretCode)))
      .then((image) => {
        if (current) setQrCode({ secretCode, image: image ?? null });
      });
    return () => {
      current = false;
    };
  }, [account.email, secretCode]);

  const pending =
    secretCode === undefined
      ? undefined
      : { secretCode, qrCode: qrCode?.secretCode === secretCode ? qrCode.image : undefined };

  const submit = (digits: string) => {
    if (!pending) {
      setSetupFailure(undefined);
      setAttempt((count) => count + 1);
      return;
    }
    setIncomplete(digits.length !== codeLength);
    if (digits.length !== codeLength) return;
    void run(async () => {
      try {
        await (await twoFactorService()).enableTwoFactor(digits, pending.secretCode, account.masterKey);
      } catch (e) {
        // The code is cleared for the next attempt.
        setCode('');
        throw e;
      }
      showDialog({
        title: t('two_factor_setup_done_title'),
        content: t('two_factor_setup_done_body'),
        close: { text: t('ok', { ns: 'common' }) },
      });
      return homeRoute();
    });
  };

  // A wrong code belongs to the code field, anything else to the form.
  const codeFailure = failure?.kind === 'wrongCode' ? failure : undefined;
  const formFailure = setupFailure ?? (codeFailure ? undefined : failure);
  const codeProblem = incomplete ? t('form_code_incomplete') : codeFailure && t(errorMessageKey(codeFailure));
  return (
    <AccountsForm
      titleKey="two_factor_setup_title"
      intro={t('two_factor_setup_intro')}
      submitLabel={pending ? t('two_factor_setup_submit') : t('two_factor_setup_retry')}
      onSubmit={() => submit(code)}
      busy={busy || (!pending && !setupFailure)}
      error={formFailure && t(errorMessageKey(formFailure))}
    >
      {pending && (
        <>
          <QrCode qrCode={pending.qrCode} />
          <SecretText secretCode={pending.secretCode} />
          <CodeInput
            value={code}
            onChange={(digits) => {
              setCode(digits);
              setIncomplete(false);
              clearFailure();
            }}
            onComplete={submit}
            disabled={busy}
            error={codeProblem}
          />
        </>
      )}
    </AccountsForm>
  );
}

function QrCode({ qrCode }: { qrCode: string | null | undefined }) {
  const { t } = useTranslation('accounts');
  const size = 200;
  if (qrCode === null) {
    return (
      <Typography variant="body2" sx={{ mb: 2, color: 'text.secondary' }}>
        {t('two_factor_setup_qr_failed')}
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', height: size, mb: 2 }}>
      {qrCode === undefined ? (
        <CircularProgress aria-label={t('two_factor_setup_qr_drawing')} />
      ) : (
        <Box
          component="img"
          src={qrCode}
          alt={t('two_factor_setup_qr_alt')}
          width={size}
          height={size}
          sx={{ bgcolor: '#ffffff', borderRadius: 1 }}
        />
      )}
    </Box>
  );
}

function SecretText({ secretCode }: { secretCode: string }) {
  const { t } = useTranslation('accounts');
  const [copied, setCopied] = useState<boolean>();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secretCode);
      setCopied(true);
    } catch (e) {
      log.warn('Could not copy the two-factor secret', e);
      setCopied(false);
    }
  };

  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {t('two_factor_setup_secret_label')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography
          component="code"
          sx={{ fontFamily: 'monospace', fontSize: '1.1rem', letterSpacing: '0.05em', overflowWrap: 'anywhere' }}
        >
          {secretCode.match(/.{1,4}/g)?.join(' ')}
        </Typography>
        <Button
          size="small"
          variant="outlined"
          color="secondary"
          startIcon={<CopyGlyph size="small" />}
          onClick={() => void copy()}
        >
          {t('two_factor_setup_copy')}
        </Button>
      </Box>
      <Typography
        role="status"
        variant="body2"
        sx={{ mt: 0.5, color: copied === false ? 'error.main' : 'text.secondary' }}
      >
        {copied === true ? t('two_factor_setup_copied') : copied === false ? t('two_factor_setup_copy_failed') : ''}
      </Typography>
    </Box>
  );
}

// The requests (and with them the HTTP client and zod) load on first use, not with the page.
function twoFactorService() {
  return import('../../services/account-two-factor.ts');
}
