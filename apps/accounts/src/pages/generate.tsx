export { default } from '@ente/accounts/pages/generate.tsx';
