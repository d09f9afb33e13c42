// The photos app's own translations (nine locales, src/locales/<locale>/*.json): the `photos` namespace (the
// gallery's layout, grid, selection, albums, dialogs, viewer), kept in two files: album.json, the texts the public
// album's page shows (its own, the grid's, the selection's, the viewer's, the download panel's, the slideshow's),
// and photos.json, the rest. `loadNamespace('photos')` fetches both, `loadNamespace('album')` the first alone, into
// the same namespace, so the public album's first load carries only its part. Handed to the shell by
// `createApp({ locales })`; each file is a chunk of its own, so none of it is in a route's first load.
import type { AppLocales } from '@ente/shared/i18n/i18n.ts';

import type enAlbum from './locales/en-US/album.json';
import type enPhotos from './locales/en-US/photos.json';

declare module '@ente/shared/i18n/i18n.ts' {
  interface AppResources {
    photos: typeof enPhotos & typeof enAlbum;
  }
  interface AppNamespaceParts {
    album: true;
  }
}

// Through load-locale.ts, which comes with import() (its map of the files stays out of _app).
const load = (file: string) => (locale: string) =>
  import('./load-locale.ts').then((module) => module.loadLocaleFile(file, locale));

export const photosLocales = {
  photos: async (locale: string) => {
    const [rest, album] = await Promise.all([load('photos')(locale), load('album')(locale)]);
    return { ...rest, ...album };
  },
  album: { partOf: 'photos', fetch: load('album') },
} satisfies AppLocales;
