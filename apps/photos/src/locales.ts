// The photos app's own translations (nine locales, src/locales/<locale>/photos.json): the `photos`
// namespace (the gallery's layout, grid, selection, albums, dialogs, viewer). Handed to the shell by
// `createApp({ locales })`; each file is a chunk of its own, fetched by `loadNamespace('photos')` when a
// page first needs it, so none of it is in a route's first load.
import type { AppLocales } from '@ente/shared/i18n/i18n.ts';

import type enPhotos from './locales/en-US/photos.json';

declare module '@ente/shared/i18n/i18n.ts' {
  interface AppResources {
    photos: typeof enPhotos;
  }
}

// Through load-locale.ts, which comes with import() (its map of the files stays out of _app).
const load = (namespace: string) => (locale: string) =>
  import('./load-locale.ts').then((module) => module.loadLocaleFile(namespace, locale));

export const photosLocales = {
  photos: load('photos'),
} satisfies AppLocales;
