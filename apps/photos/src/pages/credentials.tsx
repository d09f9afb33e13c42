export { default } from '@ente/accounts/pages/credentials.tsx';
