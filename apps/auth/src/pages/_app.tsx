import { accountUI } from '@ente/accounts/settings/account-ui.ts';
import { createApp } from '@ente/shared/app/create-app.tsx';

import { authStorage } from '../storage.ts';

export default createApp({ name: 'auth', accountUI, storage: authStorage });
