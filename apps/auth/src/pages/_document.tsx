export { default } from '@ente/shared/app/Document.tsx';
