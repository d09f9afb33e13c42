// The auth app's own translations (nine locales, src/locales/<locale>/<namespace>.json): `codes` (the
// vault pages, the share page), `import` and `export` (the dialogs). Handed to the shell by
// `createApp({ locales })`; each file is a chunk of its own, fetched by `loadNamespace` when first needed.
import type { AppLocales } from '@ente/shared/i18n/i18n.ts';

import type enCodes from './locales/en-US/codes.json';
import type enExport from './locales/en-US/export.json';
import type enImport from './locales/en-US/import.json';

declare module '@ente/shared/i18n/i18n.ts' {
  interface AppResources {
    codes: typeof enCodes;
    import: typeof enImport;
    export: typeof enExport;
  }
}

// Each through load-locale.ts, which comes with import() (its map of the files stays out of _app).
const load = (namespace: string) => (locale: string) =>
  import('./load-locale.ts').then((module) => module.loadLocaleFile(namespace, locale));

export const authLocales = {
  codes: load('codes'),
  import: load('import'),
  export: load('export'),
} satisfies AppLocales;
