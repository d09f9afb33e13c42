import { accountUI } from '@ente/accounts/settings/account-ui.ts';
import { createApp } from '@ente/shared/app/create-app.tsx';

import { authLocales } from '../locales.ts';
import { authStorage } from '../storage.ts';

export default createApp({ name: 'auth', accountUI, storage: authStorage, locales: authLocales });
