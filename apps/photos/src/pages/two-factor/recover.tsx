export { default } from '@ente/accounts/pages/two-factor/recover.tsx';
