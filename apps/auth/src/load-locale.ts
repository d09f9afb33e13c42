// The import() of the auth app's translation files (locales.ts), in a module of its own: webpack makes it
// one map of the 27 files, which is then a small chunk fetched with the first of these namespaces (the codes
// page, the share page, the dialogs) instead of part of _app, the first load of every route.
export function loadLocaleFile(namespace: string, locale: string): Promise<unknown> {
  return import(`./locales/${locale}/${namespace}.json`);
}
