// /login: signing in with an e-mail address and a one-time code (a placeholder until the sign-in
// flows are built). It also hosts the hidden developer settings, and says which server it talks to
// when that is not the default one. The dialog's code is loaded only when it is first opened, to
// keep the page's first load small.
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { log } from '@ente/shared/log.ts';
import { savedApiOrigin } from '@ente/shared/origins.ts';

import { AccountsPage } from '../components/AccountsPage.tsx';
import { useDevSettingsTrigger } from '../components/use-dev-settings-trigger.ts';

export default function LoginPage() {
  const { t } = useTranslation('accounts');
  const devSettings = useDevSettingsTrigger();
  const [customOrigin, setCustomOrigin] = useState<string | undefined>();

  useEffect(() => {
    savedApiOrigin().then(setCustomOrigin, (e: unknown) => log.warn('Could not read the stored API origin', e));
  }, []);

  return (
    <AccountsPage titleKey="login_title" bodyKey="login_body" onClick={devSettings.onPageClick}>
      {customOrigin && (
        <Typography variant="body2" sx={{ mt: 3, color: 'text.secondary' }}>
          {t('dev_settings_current_origin', { origin: customOrigin })}
        </Typography>
      )}
      {devSettings.wanted && (
        <Suspense fallback={null}>
          <DevSettingsDialog open={devSettings.open} onClose={devSettings.close} onSaved={setCustomOrigin} />
        </Suspense>
      )}
    </AccountsPage>
  );
}

const DevSettingsDialog = lazy(() =>
  import('../components/DevSettingsDialog.tsx').then((module) => ({ default: module.DevSettingsDialog })),
);
