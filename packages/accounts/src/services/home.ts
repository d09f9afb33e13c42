// Where each app lands after sign-in (docs/protocol.md#transport, the "home after login" column).
import { appName, type AppName } from '@ente/shared/app-name.ts';

const homeRoutes: Record<AppName, string> = {
  auth: '/auth',
  photos: '/gallery',
  accounts: '/passkeys',
  cast: '/',
};

/** The route the current app shows once someone is signed in. */
export function homeRoute(): string {
  return homeRoutes[appName()];
}
