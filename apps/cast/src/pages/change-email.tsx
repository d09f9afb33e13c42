export { default } from '@ente/accounts/pages/change-email.tsx';
