import { accountUI } from '@ente/accounts/settings/account-ui.ts';
import { createApp } from '@ente/shared/app/create-app.tsx';

import { photosLocales } from '../locales.ts';
import { photosStorage } from '../storage.ts';

export default createApp({ name: 'photos', accountUI, storage: photosStorage, locales: photosLocales });
