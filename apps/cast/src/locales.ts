// The cast app's own translations (nine locales, src/locales/<locale>/cast.json): the `cast` namespace (the
// pairing screen and the slideshow). Handed to the shell by `createApp({ locales })`; each file is a chunk of
// its own, fetched by `loadNamespace('cast')` when the screen first renders, so none of it is in the first load.
import type { AppLocales } from '@ente/shared/i18n/i18n.ts';

import type enCast from './locales/en-US/cast.json';

declare module '@ente/shared/i18n/i18n.ts' {
  interface AppResources {
    cast: typeof enCast;
  }
}

/** Through load-locale.ts, which comes with import() (its map of the files stays out of _app). */
export const castLocales = {
  cast: (locale: string) => import('./load-locale.ts').then(({ loadLocaleFile }) => loadLocaleFile('cast', locale)),
} satisfies AppLocales;
