import { accountUI } from '@ente/accounts/settings/account-ui.ts';
import { createApp } from '@ente/shared/app/create-app.tsx';

export default createApp({ name: 'accounts', accountUI });
