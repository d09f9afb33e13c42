// The accounts app's own translations (nine locales, src/locales/<locale>/passkeys.json): `passkeys`, the
// passkey pages. Handed to the shell by `createApp({ locales })`; each file is a chunk of its own, fetched
// by `loadNamespace('passkeys')` when a page first needs it.
import type { AppLocales } from '@ente/shared/i18n/i18n.ts';

import type enPasskeys from './locales/en-US/passkeys.json';

declare module '@ente/shared/i18n/i18n.ts' {
  interface AppResources {
    passkeys: typeof enPasskeys;
  }
}

export const accountsLocales = {
  passkeys: (locale) => import(`./locales/${locale}/passkeys.json`),
} satisfies AppLocales;
