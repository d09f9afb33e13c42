// /passkeys/verify: the passkey check of a sign-in another app started (docs/protocol.md#passkeys).
// The query names the sign-in (`passkeySessionID`), the app (`clientPackage`), where to go back
// (`redirect`) and, optionally, the app's page for signing in with the recovery key (`recover`). Both
// addresses must be on the family's configured origins (or an app scheme), else nothing runs. The check:
// begin → the browser's passkey prompt → finish, then back to `redirect` with the sealed token. A failure
// that another attempt can fix offers "Try again" (from begin) and the recovery page; so does a passkey
// the server refused because its sign count did not grow (it looks cloned or restored).
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { ParseKeys } from 'i18next';
import { useRouter } from 'next/router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { leaveFor } from '@ente/shared/app/navigation.ts';
import { LazyAlert } from '@ente/shared/components/LazyAlert.tsx';
import { PageFrame } from '@ente/shared/components/PageFrame.tsx';
import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { log } from '@ente/shared/log.ts';

import type { LoginCeremony } from '../../services/passkey-check.ts';
import { isAllowedRedirect, isClientPackage } from '../../services/redirects.ts';

type Status =
  | 'loading'
  | 'waiting'
  | 'needFocus'
  | 'redirecting'
  | 'redirectingApp'
  | 'unsupported'
  | 'invalid'
  | 'claimed'
  | 'expired'
  | 'failed'
  | 'cloned'
  | 'lockerRegistrationDisabled'
  | 'lockerRolloutLimit';

interface Request {
  passkeySessionID: string;
  clientPackage: string;
  redirect: string;
  recover: string | undefined;
}

// The requests and the browser's prompt, loaded once the link has been found good.
const service = () => import('../../services/passkey-check.ts');

export default function PasskeyVerifyPage() {
  const { t } = useTranslation('passkeys');
  const router = useRouter();
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState<Status>('loading');
  const [request, setRequest] = useState<Request>();
  const [target, setTarget] = useState<string>();
  const [ceremony, setCeremony] = useState<LoginCeremony>();
  const started = useRef(false);

  useEffect(() => {
    void loadNamespace('passkeys').then(() => setReady(true));
  }, []);

  const sign = useCallback(async (wanted: Request, begun: LoginCeremony) => {
    setStatus('waiting');
    try {
      const passkeys = await service();
      const answer = await passkeys.finishPasskeyLogin(begun, wanted.clientPackage);
      const url = passkeys.redirectWithResponse(wanted.redirect, wanted.passkeySessionID, answer);
      const web = /^https?:/i.test(url);
      setTarget(url);
      setStatus(web ? 'redirecting' : 'redirectingApp');
      leaveFor(url);
    } catch (e) {
      setStatus(signingFailure(e));
    }
  }, []);

  const start = useCallback(
    async (wanted: Request) => {
      setStatus('loading');
      let begun: LoginCeremony;
      try {
        begun = await (await service()).beginPasskeyLogin(wanted.passkeySessionID);
      } catch (e) {
        setStatus(beginFailure(e));
        return;
      }
      setCeremony(begun);
      await sign(wanted, begun);
    },
    [sign],
  );

  useEffect(() => {
    if (!router.isReady || started.current) return;
    started.current = true;
    void (async () => {
      const param = (name: string) => (typeof router.query[name] === 'string' ? router.query[name] : undefined);
      if (typeof window.PublicKeyCredential === 'undefined') {
        setStatus('unsupported');
        return;
      }
      const redirect = param('redirect');
      const clientPackage = param('clientPackage');
      const passkeySessionID = param('passkeySessionID');
      const recover = param('recover');
      if (
        !redirect ||
        !isAllowedRedirect(redirect) ||
        !clientPackage ||
        !isClientPackage(clientPackage) ||
        !passkeySessionID
      ) {
        setStatus('invalid');
        return;
      }
      const wanted = {
        passkeySessionID,
        clientPackage,
        redirect,
        recover: recover && isAllowedRedirect(recover) ? recover : undefined,
      };
      setRequest(wanted);
      await start(wanted);
    })();
  }, [router, start]);

  if (!ready) return <PageFrame title="">{null}</PageFrame>;
  // A cloned-looking passkey may be retried too: the person may pick another passkey in the prompt.
  const retryable = status === 'failed' || status === 'expired' || status === 'cloned';
  const failure = failureKey[status];
  return (
    <PageFrame title={t('verify.title')}>
      <Box sx={{ maxWidth: 480 }} aria-live="polite">
        {(status === 'loading' || status === 'waiting' || status === 'redirecting') && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            <CircularProgress size={28} aria-hidden />
            <Typography role="status">{t(progressKey[status])}</Typography>
          </Box>
        )}
        {status === 'needFocus' && request && ceremony && (
          <>
            <Typography sx={{ mb: 2 }}>{t('verify.need_focus')}</Typography>
            <Button variant="contained" onClick={() => void sign(request, ceremony)}>
              {t('verify.verify')}
            </Button>
          </>
        )}
        {status === 'redirectingApp' && (
          <>
            <LazyAlert severity="success" role="status" sx={{ mb: 2 }}>
              {t('verify.redirecting_app')}
            </LazyAlert>
            <Button variant="contained" onClick={() => target && leaveFor(target)}>
              {t('verify.redirect_again')}
            </Button>
          </>
        )}
        {failure !== undefined && (
          <LazyAlert severity="error" role="alert" sx={{ mb: 2 }}>
            {t(failure)}
            {status === 'failed' && (
              <Typography variant="body2" sx={{ mt: 1 }}>
                {t('verify.other_device')}
              </Typography>
            )}
          </LazyAlert>
        )}
        {retryable && request && (
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button variant="contained" onClick={() => void start(request)}>
              {t('verify.retry')}
            </Button>
            {request.recover && (
              <Button onClick={() => request.recover && leaveFor(request.recover)}>{t('verify.recover')}</Button>
            )}
          </Box>
        )}
      </Box>
    </PageFrame>
  );
}

const progressKey = {
  loading: 'verify.loading',
  waiting: 'verify.waiting',
  redirecting: 'verify.redirecting',
} as const;

const failureKey: Partial<Record<Status, ParseKeys<'passkeys'>>> = {
  unsupported: 'unsupported',
  invalid: 'verify.unknown_redirect',
  claimed: 'verify.claimed',
  expired: 'verify.expired',
  failed: 'verify.failed',
  cloned: 'verify.cloned',
  lockerRegistrationDisabled: 'verify.locker_registration_disabled',
  lockerRolloutLimit: 'verify.locker_rollout_limit',
};

/** What a failed begin means: a sign-in already verified, one that is over, or something to retry. */
function beginFailure(e: unknown): Status {
  const status = httpStatus(e);
  if (status === 409) return 'claimed';
  if (status === 404 || status === 410 || status === 400) return 'expired';
  log.warn('Could not begin the passkey check', e);
  return 'failed';
}

/** What a failed signing or finish means. */
function signingFailure(e: unknown): Status {
  const fields = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
  // Safari asks for the page to have focus before it shows its prompt.
  if (fields.name === 'NotAllowedError' && /focus/i.test(String(fields.message))) return 'needFocus';
  if (fields.errCode === 'LOCKER_REGISTRATION_DISABLED') return 'lockerRegistrationDisabled';
  if (fields.errCode === 'LOCKER_ROLLOUT_LIMIT') return 'lockerRolloutLimit';
  // A right signature whose sign count did not grow: a copy of the authenticator, or one restored from a backup.
  if (fields.errCode === 'PASSKEY_SIGN_COUNT_NOT_INCREASED') return 'cloned';
  if (httpStatus(e) === 404) return 'expired';
  log.warn('The passkey check failed', e);
  return 'failed';
}

function httpStatus(e: unknown): number | undefined {
  const status = (e as { httpStatus?: unknown } | null)?.httpStatus;
  return typeof status === 'number' ? status : undefined;
}
