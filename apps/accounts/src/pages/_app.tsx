import { createApp } from '@ente/shared/app/create-app.tsx';

export default createApp({ name: 'accounts' });
