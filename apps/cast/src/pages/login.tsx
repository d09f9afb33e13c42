export { default } from '@ente/accounts/pages/login.tsx';
