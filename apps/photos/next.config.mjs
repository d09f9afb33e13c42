// The shared Next configuration of the apps.
export { default } from '../../config/next.config.mjs';
