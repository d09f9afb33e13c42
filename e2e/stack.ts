// What the tests know about the running stack: where each app is served, which pages each app has,
// a watcher that records console errors, uncaught exceptions and CSP violations of a page, and its axe check.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

import { defaultPorts, localUrl } from '../scripts/start.mjs';

export type AppName = 'auth' | 'accounts' | 'photos' | 'cast';

export const appUrl = (app: AppName | 'server'): string => localUrl(defaultPorts[app]);

export const serverUrl = appUrl('server');

export interface AppPage {
  app: AppName;
  path: string;
  /** A signed-out visitor is sent to /login. */
  requiresLogin: boolean;
}

/** Each app's landing page(s) and its /login (docs/product.md#routes). */
export const appPages: readonly AppPage[] = [
  { app: 'auth', path: '/auth', requiresLogin: true },
  { app: 'auth', path: '/login', requiresLogin: false },
  { app: 'accounts', path: '/passkeys', requiresLogin: true },
  { app: 'accounts', path: '/login', requiresLogin: false },
  { app: 'photos', path: '/gallery', requiresLogin: true },
  { app: 'photos', path: '/shared-albums', requiresLogin: false },
  { app: 'photos', path: '/deduplicate', requiresLogin: true },
  { app: 'photos', path: '/login', requiresLogin: false },
  { app: 'cast', path: '/', requiresLogin: false },
  { app: 'cast', path: '/login', requiresLogin: false },
];

export const pageName = ({ app, path }: AppPage) => `${app} ${path}`;

export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  cspViolations: string[];
}

/**
 * Starts recording a page's problems; call before the first navigation. CSP violations are caught
 * in the page itself (the securitypolicyviolation event, reported back through a binding) as well
 * as through the console message Chromium prints for each.
 */
export async function watchProblems(page: Page): Promise<PageProblems> {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], cspViolations: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const where = message.location().url;
      problems.consoleErrors.push(`${message.text()}${where ? ` (${where})` : ''}`);
    }
  });
  page.on('pageerror', (error) => problems.pageErrors.push(`${error.name}: ${error.message}`));
  await page.exposeBinding('__reportCspViolation', (_source, violation: string) => {
    problems.cspViolations.push(violation);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (violation: string) => void }).__reportCspViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}`);
    });
  });
  return problems;
}

export interface BrowserStorageValues {
  /** Local storage keys and their values (stored as JSON, as the apps store them). */
  local?: Record<string, unknown>;
  /** Session storage keys and their values (JSON). */
  session?: Record<string, unknown>;
  /** kv database keys and their string values (docs/protocol.md#indexeddb). */
  kv?: Record<string, string>;
}

/**
 * Writes values into the storage of `app`'s origin from a page of that origin that runs no app code
 * (a 404 page). Session storage belongs to this tab: later navigations of `page` keep it.
 */
export async function writeBrowserStorage(page: Page, app: AppName, values: BrowserStorageValues): Promise<void> {
  await page.goto(`${appUrl(app)}/404`);
  await page.evaluate(async ({ local = {}, session = {}, kv = {} }) => {
    for (const [key, value] of Object.entries(local)) localStorage.setItem(key, JSON.stringify(value));
    for (const [key, value] of Object.entries(session)) sessionStorage.setItem(key, JSON.stringify(value));
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('kv', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('kv');
      open.onerror = () => reject(open.error ?? new Error('Could not open the kv database'));
      open.onsuccess = () => {
        const tx = open.result.transaction('kv', 'readwrite');
        const store = tx.objectStore('kv');
        for (const [key, value] of Object.entries(kv)) store.put(value, key);
        tx.oncomplete = () => {
          open.result.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error ?? new Error('Could not write the kv database'));
      };
    });
  }, values);
}

/** A value of the apps' kv database (docs/protocol.md#indexeddb), read in the page's origin. */
export async function readKV(page: Page, key: string): Promise<unknown> {
  return page.evaluate(
    (wanted) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('kv', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('kv');
        open.onerror = () => reject(open.error ?? new Error('Could not open the kv database'));
        open.onsuccess = () => {
          const get = open.result.transaction('kv', 'readonly').objectStore('kv').get(wanted);
          get.onsuccess = () => {
            open.result.close();
            resolve(get.result);
          };
          get.onerror = () => reject(get.error ?? new Error('Could not read the kv database'));
        };
      }),
    key,
  );
}

/** Waits until the page has loaded and the shell's loading overlay (if any) is gone. */
export async function waitUntilSettled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toHaveCount(0);
}

/** Relative luminance (0 black … 1 white) of the page background. */
export function backgroundLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const [r = 0, g = 0, b = 0] = (getComputedStyle(document.body).backgroundColor.match(/\d+(\.\d+)?/g) ?? []).map(
      (channel) => {
        const c = Number(channel) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      },
    );
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  });
}

/**
 * The axe violations of `page` that are serious or critical, in a form that reads well in a failed expectation.
 * Transitions (a dialog fading in) and other short animations run out first: half-faded text fails the
 * contrast check. A code's countdown bar is a finite animation too, but one period long (30 s or more) and
 * a moving transform, not a fade: waiting for it cost up to a whole period per scan.
 */
export async function seriousViolations(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => {
          const duration = Number(animation.effect?.getComputedTiming().activeDuration);
          return animation instanceof CSSTransition || duration <= 5_000;
        })
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}
