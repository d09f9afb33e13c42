// The page that gets around a lost second factor with the recovery key, for both kinds
// (docs/protocol.md#lost-second-factor): /two-factor/recover (TOTP) and /passkeys/recover (a passkey,
// reached from the accounts app's check). On arrival it fetches the secret the account stored,
// encrypted under the recovery key; if the server has none, a dialog says to contact support. The
// recovery key typed then opens the secret and signs in, and the password step (/credentials) follows.
// TOTP is turned off by that; passkeys stay. Without a sign-in waiting for that factor there is nothing
// to recover: back to /login.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { TwoFactorType } from '@ente/protocol/two-factor.ts';
import { useDialog } from '@ente/shared/dialog/DialogProvider.tsx';
import { savedUser } from '@ente/shared/storage/local-storage.ts';

import { errorMessageKey, toAccountsError, type AccountsErrorMessageKey } from '../services/errors.ts';
import { RecoveryKeyForm } from './RecoveryKeyForm.tsx';
import { RouteLink } from './RouteLink.tsx';
import { useRedirectOnArrival } from './use-redirect-on-arrival.ts';

import '../strings.ts';

/** What differs between the two kinds: the words, the session looked for, what the log says. */
const kinds = {
  totp: {
    titleKey: 'two_factor_recover_title',
    introKey: 'two_factor_recover_intro',
    sessionOf: (user) => user?.twoFactorSessionID,
    what: 'remove two-factor authentication',
  },
  passkey: {
    titleKey: 'passkey_recover_title',
    introKey: 'passkey_recover_intro',
    sessionOf: (user) => user?.passkeySessionID,
    what: 'sign in without the passkey',
  },
} as const satisfies Record<
  TwoFactorType,
  {
    titleKey: string;
    introKey: string;
    sessionOf: (user: ReturnType<typeof savedUser>) => string | undefined;
    what: string;
  }
>;

export function SecondFactorRecovery({ kind }: { kind: TwoFactorType }) {
  const { t } = useTranslation('accounts');
  const { showDialog, onGenericError } = useDialog();
  const [notice, setNotice] = useState<AccountsErrorMessageKey>();
  const started = useRef(false);
  const { titleKey, introKey, sessionOf, what } = kinds[kind];

  useRedirectOnArrival(() => (sessionOf(savedUser()) ? undefined : '/login'));

  useEffect(() => {
    if (started.current || !sessionOf(savedUser())) return;
    started.current = true;
    flows()
      .then((twoFactor) => twoFactor.recoverTwoFactorStart(kind))
      .catch((e: unknown) => {
        const error = toAccountsError(e);
        if (error.kind === 'unknown') {
          onGenericError(e, { message: `Could not fetch the secret to ${what}` });
          return;
        }
        setNotice(errorMessageKey(error));
        if (error.kind === 'twoFactorRecoveryUnavailable')
          showDialog({ title: t(titleKey), content: t('error_twoFactorRecoveryUnavailable') });
      });
  }, [kind, onGenericError, sessionOf, showDialog, t, titleKey, what]);

  return (
    <RecoveryKeyForm
      titleKey={titleKey}
      intro={t(introKey)}
      submitLabel={t('two_factor_recover_submit')}
      recover={async (text) => (await flows()).recoverTwoFactor(text, kind)}
      what={`Could not ${what}`}
      notice={notice && t(notice)}
      links={
        kind === 'totp' ? <RouteLink href="/two-factor/verify">{t('two_factor_recover_back')}</RouteLink> : undefined
      }
    />
  );
}

/** The second-factor flows, loaded on arrival. */
const flows = () => import('../services/two-factor.ts');
