// The photos app's album and trash actions through the pages, against the real server: a folder uploaded as an
// album; a new album; files added, moved and removed; trashed and restored; then the deduplicate page removes the
// copy of the same bytes under another name. Every step is checked in what the page shows after the library's
// pull (the writes go to the server, the grid shows what the server answered).
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { api, createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { serverCollections } from '../photos-api.ts';
import { openAccountKeys, openAlbumKey, openAlbumName, sealAlbumKey } from '../photos-oracle.ts';
import { seriousViolations, watchProblems } from '../stack.ts';

test.describe.configure({ timeout: 240_000 });

const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'photos');
const sunset = 'sunset-exif-gps.jpg';
const twin = 'sunset-exif-gps-duplicate.jpg';
const shapes = 'shapes.png';

async function uploadFolder(page: Page, name: string, files: readonly string[]): Promise<void> {
  const folder = path.join(await mkdtemp(path.join(tmpdir(), 'photos-e2e-')), name);
  await mkdir(folder);
  for (const file of files) await copyFile(path.join(fixtures, file), path.join(folder, file));
  // By keyboard: the Upload menu opens on its first item; the next is the folder picker.
  await page.getByRole('button', { name: 'Upload' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Files…' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(folder);
  await expect(page.getByRole('heading', { name: 'Uploads finished' })).toBeVisible({ timeout: 120_000 });
}

const cell = (page: Page, title: string) => page.getByRole('grid').getByRole('img', { name: title, exact: true });

/** Selects `titles` in the grid shown (Ctrl/⌘-click) and runs `action` of the selection bar. */
async function withSelection(page: Page, titles: readonly string[], action: string): Promise<void> {
  for (const title of titles) await cell(page, title).click({ modifiers: ['ControlOrMeta'] });
  const bar = page.getByRole('toolbar', { name: 'Selected items' });
  await expect(bar.getByText(`${String(titles.length)} selected`)).toBeVisible();
  await bar.getByRole('button', { name: action, exact: true }).click();
}

async function openSection(page: Page, name: 'Photos' | 'Albums' | 'Trash'): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

async function openAlbum(page: Page, name: string): Promise<void> {
  await openSection(page, 'Albums');
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}

/** The titles the grid shows now (every cell's image), sorted. */
async function shown(page: Page): Promise<string[]> {
  const grid = page.getByRole('grid');
  if ((await grid.count()) === 0) return [];
  const names = await grid
    .locator('[role="gridcell"] img[alt], [role="gridcell"] [role="img"]')
    .evaluateAll((images) =>
      images.map((image) => image.getAttribute('alt') ?? image.getAttribute('aria-label') ?? ''),
    );
  return names.sort();
}

test('albums, trash and duplicates through the pages', async ({ page }) => {
  const problems = await watchProblems(page);
  const { account } = await createAccount({ app: 'photos' });
  await signInBrowser(page, 'photos', account, await passwordLogin(account, 'photos'), '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  await uploadFolder(page, 'Trip', [sunset, twin, shapes]);
  for (const title of [sunset, twin, shapes]) await expect(cell(page, title)).toBeVisible({ timeout: 30_000 });

  // The viewer by keyboard: Enter on a cell opens it, the arrows move, Escape closes it.
  await page.getByRole('grid').getByRole('button').first().focus();
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog');
  const title = viewer.getByRole('heading', { level: 2 });
  await expect(title).toHaveText(/\S/);
  const first = await title.textContent();
  await page.keyboard.press('ArrowRight');
  await expect(title).not.toHaveText(first ?? '');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // Create an album.
  await openSection(page, 'Albums');
  await page.getByRole('button', { name: 'New album' }).click();
  const nameDialog = page.getByRole('dialog', { name: 'New album' });
  await nameDialog.getByRole('textbox', { name: 'Album name' }).fill('Best');
  await nameDialog.getByRole('button', { name: 'Create' }).click();
  await expect(nameDialog).toBeHidden();
  await expect(page.getByRole('button', { name: /^Best/ })).toBeVisible();

  // Add: from the photos into the new album (it stays in Trip too).
  await openSection(page, 'Photos');
  await withSelection(page, [shapes], 'Add to album');
  await page.getByRole('dialog', { name: 'Add to album' }).getByRole('button', { name: /^Best/ }).click();
  await openAlbum(page, 'Best');
  await expect.poll(() => shown(page)).toEqual([shapes]);

  // Move: out of Trip into Best.
  await openAlbum(page, 'Trip');
  await withSelection(page, [sunset], 'Move to album');
  await page.getByRole('dialog', { name: 'Move to album' }).getByRole('button', { name: /^Best/ }).click();
  await expect.poll(() => shown(page)).toEqual([shapes, twin].sort());
  await openAlbum(page, 'Best');
  await expect.poll(() => shown(page)).toEqual([shapes, sunset].sort());

  // Remove: out of Best, still in the library (and in Trip).
  await withSelection(page, [shapes], 'Remove from album');
  await expect.poll(() => shown(page)).toEqual([sunset]);
  await openSection(page, 'Photos');
  await expect.poll(() => shown(page)).toEqual([sunset, twin, shapes].sort());

  // Trash, confirmed; the trash says the days left; restore.
  await withSelection(page, [twin], 'Move to trash');
  await page.getByRole('dialog', { name: 'Move to trash?' }).getByRole('button', { name: 'Move to trash' }).click();
  await expect.poll(() => shown(page)).toEqual([sunset, shapes].sort());
  await openSection(page, 'Trash');
  await expect.poll(() => shown(page)).toEqual([twin]);
  await expect(page.getByText('Days left: 30')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await withSelection(page, [twin], 'Restore');
  await expect.poll(() => shown(page)).toEqual([]);
  await openSection(page, 'Photos');
  await expect.poll(() => shown(page)).toEqual([sunset, twin, shapes].sort());

  // Deduplicate: the two files of the same bytes are one group; removing keeps one, which is in both albums.
  await page.getByRole('navigation').getByRole('link', { name: 'Deduplicate' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Deduplicate' })).toBeVisible();
  await expect(page.getByText(/Groups of identical files: 1\. Files to remove: 1\./)).toBeVisible({ timeout: 30_000 });
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Remove duplicates' }).click();
  await page
    .getByRole('dialog', { name: 'Remove the duplicates?' })
    .getByRole('button', { name: 'Remove duplicates' })
    .click();
  await expect(page.getByText('No duplicates found.')).toBeVisible({ timeout: 30_000 });
  await openSection(page, 'Photos');
  await expect.poll(async () => (await shown(page)).length).toBe(2);
  const [kept] = (await shown(page)).filter((title) => title !== shapes);
  expect([sunset, twin]).toContain(kept);
  for (const album of ['Trip', 'Best']) {
    await openAlbum(page, album);
    await expect.poll(() => shown(page)).toContain(kept);
  }

  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
});

test('an album shared with another account shows in their Shared with me, with its photos', async ({
  page,
  browser,
}) => {
  const owner = (await createAccount({ app: 'photos' })).account;
  const ownerToken = await passwordLogin(owner, 'photos');
  await signInBrowser(page, 'photos', owner, ownerToken, '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  await uploadFolder(page, 'Shared trip', [shapes, sunset]);
  await expect(cell(page, shapes)).toBeVisible({ timeout: 30_000 });

  // Shared as a client of the owner would (the album key sealed to the friend's public key), read by libsodium.
  const friend = (await createAccount({ app: 'photos' })).account;
  const keys = await openAccountKeys(owner.password, owner.keyAttributes);
  let shared = false;
  for (const collection of await serverCollections(ownerToken)) {
    const albumKey = await openAlbumKey(collection, keys);
    if ((await openAlbumName(collection, albumKey)) !== 'Shared trip') continue;
    const { publicKey } = await api<{ publicKey: string }>('photos', 'GET', '/users/public-key', {
      token: ownerToken,
      query: { email: friend.email },
    });
    await api('photos', 'POST', '/collections/share', {
      token: ownerToken,
      body: {
        collectionID: collection.id,
        email: friend.email,
        role: 'VIEWER',
        encryptedKey: await sealAlbumKey(albumKey, publicKey),
      },
    });
    shared = true;
  }
  expect(shared).toBe(true);

  const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-US' });
  const friendPage = await context.newPage();
  const problems = await watchProblems(friendPage);
  await signInBrowser(friendPage, 'photos', friend, await passwordLogin(friend, 'photos'), '/gallery?view=shared');
  await expect(friendPage.getByRole('heading', { level: 1, name: 'Shared with me' })).toBeVisible({ timeout: 30_000 });
  await friendPage.getByRole('button', { name: /^Shared trip/ }).click();
  await expect(friendPage.getByRole('heading', { level: 1, name: 'Shared trip' })).toBeVisible();
  await expect.poll(() => shown(friendPage)).toEqual([shapes, sunset].sort());
  // The thumbnails opened (an image, not the placeholder).
  for (const title of [shapes, sunset]) {
    await expect(friendPage.getByRole('grid').locator(`img[alt="${title}"]`)).toBeVisible({ timeout: 30_000 });
  }
  expect(await seriousViolations(friendPage)).toEqual([]);
  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
  await context.close();
});
