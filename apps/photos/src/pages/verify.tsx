export { default } from '@ente/accounts/pages/verify.tsx';
