export { default } from '@ente/accounts/pages/two-factor/setup.tsx';
