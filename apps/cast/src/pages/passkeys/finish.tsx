export { default } from '@ente/accounts/pages/passkeys/finish.tsx';
