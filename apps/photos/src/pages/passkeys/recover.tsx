export { default } from '@ente/accounts/pages/passkeys/recover.tsx';
