export { default } from '@ente/accounts/pages/recover.tsx';
