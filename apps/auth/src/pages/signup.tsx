export { default } from '@ente/accounts/pages/signup.tsx';
