export { default } from '@ente/accounts/pages/change-password.tsx';
