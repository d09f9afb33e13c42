// The photos app speaks each of the nine locales on every page state, against the real server: a folder of three
// photos (two of the same bytes) uploaded, one of them trashed; then, in each locale, the gallery, its selection
// bar, the viewer, the album list, the album, the trash and the deduplicate page. Every text the page holds (text
// nodes, accessible names, titles, placeholders, the document's title) is compared with what the same state shows in
// en-US: a text shown in both must come from that locale's own translation files (a word the same in both
// languages, like "Video" in German) or be the user's data (file and album names, the address, numbers). So a text
// written into a component instead of a translation file, or a key missing from a locale (i18next then falls back
// to English), fails here. That every key exists in every locale and that none is copied from English:
// apps/photos/src/locales.test.ts.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { fixtureFolder, uploadFolder } from '../photos-ui.ts';
import { appUrl, waitUntilSettled } from '../stack.ts';

test.describe.configure({ timeout: 300_000 });
test.use({ timezoneId: 'UTC' });

const root = path.join(import.meta.dirname, '..', '..');
const album = 'Zeitreise';
const files = ['sunset-exif-gps.jpg', 'sunset-exif-gps-duplicate.jpg', 'shapes.png'];
const trashed = 'shapes.png';
const localesDir = path.join(root, 'apps', 'photos', 'src', 'locales');
const english = 'en-US';

/** Every text of a locale's translation files (the shell's namespaces and the photos app's), flattened. */
async function translations(locale: string): Promise<string[]> {
  const folders = [
    path.join(root, 'packages', 'shared', 'src', 'i18n', 'locales', locale),
    path.join(localesDir, locale),
  ];
  const values: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') values.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const folder of folders) {
    for (const file of await readdir(folder)) walk(JSON.parse(await readFile(path.join(folder, file), 'utf8')));
  }
  return values;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const marker = /\{\{[^}]+\}\}|<\/?\d+>|<\/?[a-z]+\s*\/?>/g;

/** Whether `text` is one of `templates` with its placeholders filled, or a piece of one between its tags. */
function fromTemplates(text: string, templates: readonly string[]): boolean {
  return templates.some((template) => {
    const pieces = template.split(marker);
    if (new RegExp(`^${pieces.map(escape).join('[\\s\\S]*')}$`).test(text)) return true;
    return pieces.some((piece) => piece.trim() === text);
  });
}

/** Every text the page holds now: text nodes, accessible names, titles, placeholders, the document's title. */
function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found = new Set<string>([document.title.trim()]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest('script, style, noscript, template')) continue;
      found.add((node.textContent ?? '').trim());
    }
    for (const element of document.body.querySelectorAll('*')) {
      for (const name of ['aria-label', 'title', 'placeholder', 'aria-valuetext', 'aria-roledescription']) {
        found.add((element.getAttribute(name) ?? '').trim());
      }
    }
    found.delete('');
    return [...found];
  });
}

const grid = (page: Page) => page.getByRole('grid');
const h1 = (page: Page) => page.getByRole('heading', { level: 1 });

/** The page states of the photos app, each entered without reading a word (roles, keys, data), with their texts. */
async function statesIn(page: Page, locale: string): Promise<Record<string, string[]>> {
  await page.evaluate((saved) => localStorage.setItem('locale', JSON.stringify(saved)), locale);
  await page.goto(`${appUrl('photos')}/gallery`);
  await expect(page.locator('html')).toHaveAttribute('lang', locale, { timeout: 30_000 });
  await expect(grid(page).locator('img[alt]')).toHaveCount(files.length - 1, { timeout: 30_000 });
  await waitUntilSettled(page);
  const states: Record<string, string[]> = { gallery: await pageTexts(page) };

  await grid(page).getByRole('button').first().focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('toolbar')).toBeVisible();
  states['selection bar'] = await pageTexts(page);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('toolbar')).toBeHidden();

  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog');
  await expect(viewer.locator('img')).toBeVisible({ timeout: 30_000 });
  states.viewer = await pageTexts(page);
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  await page.goto(`${appUrl('photos')}/gallery?view=albums`);
  // The album's card (its menu's button comes after it; in some languages its name starts with the album's too).
  const albumButton = page.getByRole('button', { name: new RegExp(`^${album}`) }).first();
  await expect(albumButton).toBeVisible({ timeout: 30_000 });
  states.albums = await pageTexts(page);
  await albumButton.click();
  await expect(h1(page)).toHaveText(album);
  await expect(grid(page).locator('img[alt]')).toHaveCount(files.length - 1, { timeout: 30_000 });
  states.album = await pageTexts(page);

  await page.goto(`${appUrl('photos')}/gallery?view=trash`);
  await expect(grid(page).locator(`img[alt="${trashed}"]`)).toBeVisible({ timeout: 30_000 });
  states.trash = await pageTexts(page);

  await page.goto(`${appUrl('photos')}/deduplicate`);
  await expect(page.getByRole('checkbox')).toHaveCount(1, { timeout: 30_000 });
  await waitUntilSettled(page);
  states.deduplicate = await pageTexts(page);
  return states;
}

test('every photos page state shows its text in each of the nine locales, none left in English', async ({ page }) => {
  const { account } = await createAccount({ app: 'photos' });
  await signInBrowser(page, 'photos', account, await passwordLogin(account, 'photos'), '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  await uploadFolder(page, await fixtureFolder(album, files));
  await grid(page)
    .getByRole('img', { name: trashed, exact: true })
    .click({ modifiers: ['ControlOrMeta'] });
  await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Move to trash' }).click();
  await page.getByRole('dialog', { name: 'Move to trash?' }).getByRole('button', { name: 'Move to trash' }).click();
  await expect(grid(page).getByRole('img', { name: trashed, exact: true })).toHaveCount(0);

  const inEnglish = await statesIn(page, english);
  // The user's data (file and album names, the address) and the brand's name.
  const data = [...files, album, account.email, 'ente'];
  const untranslated: Record<string, string[]> = {};
  // The photos app's locale folders: the nine locales (apps/photos/src/locales.test.ts holds them to the shell's).
  const locales = (await readdir(localesDir)).filter((locale) => locale !== english);
  expect(locales).toHaveLength(8);
  for (const locale of locales) {
    const own = await translations(locale);
    const shown = await statesIn(page, locale);
    for (const [state, texts] of Object.entries(shown)) {
      const englishTexts = new Set(inEnglish[state]);
      const left = texts.filter(
        (text) => englishTexts.has(text) && /\p{L}/u.test(text) && !data.includes(text) && !fromTemplates(text, own),
      );
      if (left.length > 0) untranslated[`${locale} ${state}`] = left;
    }
    // The check sees each state: it found texts in each.
    expect(Object.keys(shown).length, locale).toBe(7);
    for (const [state, texts] of Object.entries(shown)) expect(texts.length, `${locale} ${state}`).toBeGreaterThan(3);
  }
  expect(untranslated).toEqual({});
});
