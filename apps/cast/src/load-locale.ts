// The import() of the cast app's translation files (locales.ts), in a module of its own: webpack makes it one
// map of the nine files, a small chunk fetched with the namespace instead of part of _app.
export function loadLocaleFile(namespace: string, locale: string): Promise<unknown> {
  return import(`./locales/${locale}/${namespace}.json`);
}
