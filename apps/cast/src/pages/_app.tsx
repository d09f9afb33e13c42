import { accountUI } from '@ente/accounts/settings/account-ui.ts';
import { createApp } from '@ente/shared/app/create-app.tsx';

import { castLocales } from '../locales.ts';

export default createApp({ name: 'cast', accountUI, locales: castLocales });
