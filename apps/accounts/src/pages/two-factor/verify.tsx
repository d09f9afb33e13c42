export { default } from '@ente/accounts/pages/two-factor/verify.tsx';
