import { accountUI } from '@ente/accounts/settings/account-ui.ts';
import { createApp } from '@ente/shared/app/create-app.tsx';

import { photosStorage } from '../storage.ts';

export default createApp({ name: 'photos', accountUI, storage: photosStorage });
