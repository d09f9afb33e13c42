import { accountUI } from '@ente/accounts/settings/account-ui.ts';
import { createApp } from '@ente/shared/app/create-app.tsx';

import { accountsLocales } from '../locales.ts';

export default createApp({ name: 'accounts', accountUI, locales: accountsLocales });
