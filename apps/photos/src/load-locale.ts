// The import() of the photos app's translation files (locales.ts), in a module of its own: webpack makes it
// one map of the files (two per locale), a small chunk fetched with the namespace instead of part of _app, the first load
// of every route.
export async function loadLocaleFile(file: string, locale: string): Promise<Record<string, unknown>> {
  const module = (await import(`./locales/${locale}/${file}.json`)) as { default: Record<string, unknown> };
  return module.default;
}
