// Translations for every app: i18next with the nine locales (docs/product.md#locales) and three
// namespaces (common: the shell and landing pages; errors and accounts: the platform's). The en-US files
// also type every key: a key that en-US lacks fails the type check. en-US is bundled and set up
// synchronously when its modules load, so `t` works everywhere from the start (also in the static
// prerender): common and errors with this module (every page's first load), accounts with the modules of
// @ente/accounts that show it (its strings.ts, addBundledNamespace), so a page without sign-in forms or
// settings (the public album) does not carry it. Every other locale is a separate chunk fetched with import()
// only when it is chosen, which keeps the first load small. The app counts as ready once the visitor's locale
// is in place.
// An app's own namespaces (the auth app's `codes`, `import`, `export`; the accounts app's `passkeys`)
// live in the app (src/locales/<locale>/<namespace>.json) and are handed to the shell with
// `createApp({ locales })`; they are in no first load at all: the code that needs one calls
// `loadNamespace('codes')`, which fetches it for en-US and the locale in use, and for every locale
// chosen later. The app types their keys by adding them to `AppResources` (module augmentation).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

import { log } from '../log.ts';
import { savedLocale, saveLocale } from '../storage/local-storage.ts';
import { chooseLocale, defaultLocale, isSupportedLocale, supportedLocales, type Locale } from './locales.ts';
import type enAccounts from './locales/en-US/accounts.json';
import enCommon from './locales/en-US/common.json';
import enErrors from './locales/en-US/errors.json';

export const namespaces = ['common', 'errors', 'accounts'] as const;

export type Namespace = (typeof namespaces)[number];

/**
 * The en-US resources of an app's own namespaces, by name: each app adds its own to this interface
 * (`declare module '@ente/shared/i18n/i18n.ts' { interface AppResources { codes: typeof enCodes } }`),
 * which types their keys in that app.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the apps' augmentations
export interface AppResources {}

/**
 * Parts of an app's namespaces that a page can fetch alone (`loadNamespace('album')`), by name: each app adds its
 * own (`interface AppNamespaceParts { album: true }`) and declares in its AppLocales which namespace each joins.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the apps' augmentations
export interface AppNamespaceParts {}

/** Namespaces fetched only when a page asks for them (`loadNamespace`): the running app's own, or a part of one. */
export type LazyNamespace = Extract<keyof (AppResources & AppNamespaceParts), string>;

/** How to fetch one translation file of an app, for a locale (one chunk per file). */
type FetchTranslations = (locale: Locale) => Promise<unknown>;

/**
 * An app's own namespaces: how to fetch each for a locale. A part (`{ partOf, fetch }`) is a piece of a
 * namespace that a page fetches alone (the public album's texts of the photos app): its keys join those of
 * `partOf`, whose own loader fetches the whole.
 */
export type AppLocales = Record<string, FetchTranslations | { partOf: string; fetch: FetchTranslations }>;

let appLocales: AppLocales = {};

/** Declares the running app's namespaces (createApp does, when the app's `_app` loads). */
export function declareAppLocales(locales: AppLocales): void {
  appLocales = locales;
}

// Typed keys: `t('…')`, `useTranslation(ns)` and i18next's ParseKeys<ns> accept only keys of these files.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof enCommon;
      errors: typeof enErrors;
      accounts: typeof enAccounts;
    } & AppResources;
  }
}

/** The shared i18next instance (the global one, so `import { t } from 'i18next'` works too). */
export const i18n = i18next;

void i18n.use(initReactI18next).init({
  lng: defaultLocale,
  fallbackLng: defaultLocale,
  supportedLngs: [...supportedLocales],
  // Locale codes are used as they are: no 'en' fallback step, no lower-casing.
  load: 'currentOnly',
  ns: [...namespaces],
  defaultNS: 'common',
  resources: { [defaultLocale]: { common: enCommon, errors: enErrors } },
  partialBundledLanguages: true,
  initAsync: false,
  // React escapes what it renders; escaping here as well would show entities.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  returnNull: false,
});

i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});

/**
 * Picks the visitor's locale (docs/product.md#locales) and loads it; the app shell waits for this
 * before showing a page. Runs once, however often it is called. A locale that cannot be fetched
 * leaves en-US in place.
 */
export function setupI18n(): Promise<void> {
  return (setupPromise ??= runSetup());
}

/** Whether setupI18n has finished. */
export function isI18nReady(): boolean {
  return ready;
}

/** Calls `listener` when the ready state changes; returns the unsubscribe function. */
export function subscribeI18nReady(listener: () => void): () => void {
  readyListeners.add(listener);
  return () => readyListeners.delete(listener);
}

/**
 * Puts a namespace's en-US texts in place from a module that bundles them (@ente/accounts/strings.ts): the
 * namespace is fetched for the other locales like common and errors, but its en-US file comes only with the
 * code that shows it.
 */
export function addBundledNamespace(ns: 'accounts', resources: typeof enAccounts): void {
  if (!i18n.hasResourceBundle(defaultLocale, ns)) i18n.addResourceBundle(defaultLocale, ns, resources);
}

/** The locale in use. */
export function currentLocale(): Locale {
  const language = i18n.language;
  return isSupportedLocale(language) ? language : defaultLocale;
}

/**
 * Fetches a lazy namespace for en-US (the fallback) and the locale in use, and from then on with every
 * locale chosen. Resolves once both are in place; a failure to fetch a translation leaves en-US.
 */
export function loadNamespace(ns: LazyNamespace): Promise<void> {
  let loading = lazyLoads.get(ns);
  if (!loading) {
    loading = (async () => {
      await addLazyBundle(defaultLocale, ns);
      loadedLazy.add(ns);
      try {
        await addLazyBundle(currentLocale(), ns);
      } catch (e) {
        log.warn(`Could not load the ${currentLocale()} translations of ${ns}`, e);
      }
    })();
    lazyLoads.set(ns, loading);
    loading.catch(() => lazyLoads.delete(ns));
  }
  return loading;
}

/** Whether `loadNamespace(ns)` has put en-US in place (a page can show its texts). */
export function isNamespaceLoaded(ns: LazyNamespace): boolean {
  return loadedLazy.has(ns);
}

const lazyLoads = new Map<LazyNamespace, Promise<void>>();
const loadedLazy = new Set<LazyNamespace>();
/** The lazy namespaces and parts in place, as `<locale>/<name>`. */
const lazyBundles = new Set<string>();

async function addLazyBundle(locale: Locale, ns: LazyNamespace): Promise<void> {
  if (lazyBundles.has(`${locale}/${ns}`)) return;
  i18n.addResourceBundle(locale, targetNamespace(ns), await loadBundle(locale, ns), true, true);
  lazyBundles.add(`${locale}/${ns}`);
}

/** The i18next namespace a lazy namespace's texts go to: its own name, or for a part the namespace it is of. */
function targetNamespace(ns: Namespace | LazyNamespace): string {
  const load = (appLocales as Partial<AppLocales>)[ns];
  return typeof load === 'object' ? load.partOf : ns;
}

/** Switches to `locale` (the user's choice from the menu) and saves it. Throws if it cannot be fetched. */
export async function changeLocale(locale: Locale): Promise<void> {
  await applyLocale(locale);
  saveLocale(locale);
}

let setupPromise: Promise<void> | undefined;
let ready = false;
const readyListeners = new Set<() => void>();

async function runSetup(): Promise<void> {
  const locale = chooseLocale(savedLocale(), browserLanguages());
  try {
    await applyLocale(locale);
  } catch (e) {
    log.warn(`Could not load the ${locale} translations; using ${defaultLocale}`, e);
    await applyLocale(defaultLocale);
  }
  ready = true;
  readyListeners.forEach((listener) => listener());
}

async function applyLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  await i18n.changeLanguage(locale);
  // changeLanguage only reports a change; the first (en-US) language needs the attribute too.
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

async function loadLocale(locale: Locale): Promise<void> {
  // en-US is never fetched here: its namespaces come bundled, and the lazy ones with loadNamespace.
  if (locale === defaultLocale) return;
  const wanted = [
    ...namespaces.filter((ns) => !i18n.hasResourceBundle(locale, ns)),
    ...[...loadedLazy].filter((ns) => !lazyBundles.has(`${locale}/${ns}`)),
  ];
  const bundles = await Promise.all(wanted.map((ns) => loadBundle(locale, ns)));
  wanted.forEach((ns, index) => {
    i18n.addResourceBundle(locale, targetNamespace(ns), bundles[index] ?? {}, true, true);
    if (!(namespaces as readonly string[]).includes(ns)) lazyBundles.add(`${locale}/${ns}`);
  });
}

async function loadBundle(locale: Locale, ns: Namespace | LazyNamespace): Promise<Record<string, unknown>> {
  // One webpack chunk per file of ./locales/<locale>/<namespace>.json (the app's for its own namespaces).
  const appLoad = (appLocales as Partial<AppLocales>)[ns];
  if (!appLoad && !(namespaces as readonly string[]).includes(ns)) throw new Error(`Unknown namespace ${ns}`);
  const fetchFile = typeof appLoad === 'object' ? appLoad.fetch : appLoad;
  const module: unknown = await (fetchFile ? fetchFile(locale) : import(`./locales/${locale}/${ns}.json`));
  const bundle = (module as { default?: unknown }).default ?? module;
  if (typeof bundle !== 'object' || bundle === null) throw new Error(`Bad translation file ${locale}/${ns}`);
  return bundle as Record<string, unknown>;
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}
