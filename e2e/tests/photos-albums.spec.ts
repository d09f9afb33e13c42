// The photos app's album and trash actions through the pages, against the real server: a folder uploaded as an
// album; a new album; files added (by keyboard only), moved and removed; trashed and restored; then the deduplicate
// page removes the copy of the same bytes under another name; axe scans each state. Every step is checked in what the page shows after the library's
// pull (the writes go to the server, the grid shows what the server answered). The second test shares an album
// through its Share dialog (by keyboard), makes a password link there (its key checked against the album's) that a
// fresh context with no account opens from the clipboard (a wrong password refused, the right one shows the grid),
// and has the second account see the album, leave it, get it again as collaborator and lose it when the owner
// unshares.
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { expect, test, type Locator, type Page } from '@playwright/test';

import { clientPackage, createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { serverCollections } from '../photos-api.ts';
import { openAccountKeys, openAlbumKey } from '../photos-oracle.ts';
import { appUrl, seriousViolations, serverUrl, watchProblems } from '../stack.ts';

test.describe.configure({ timeout: 240_000 });

const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'photos');
const sunset = 'sunset-exif-gps.jpg';
const twin = 'sunset-exif-gps-duplicate.jpg';
const shapes = 'shapes.png';

async function uploadFolder(page: Page, name: string, files: readonly string[]): Promise<void> {
  const folder = path.join(await mkdtemp(path.join(tmpdir(), 'photos-e2e-')), name);
  await mkdir(folder);
  for (const file of files) await copyFile(path.join(fixtures, file), path.join(folder, file));
  // Listened for first: Playwright turns the browser's file chooser interception on when a listener is added, without
  // waiting for it, and a key press right after it could open the picker before (one run in three did).
  const chooser = page.waitForEvent('filechooser');
  // By keyboard: the Upload menu opens on its first item; the next is the folder picker.
  await page.getByRole('button', { name: 'Upload' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Files…' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'A folder…' })).toBeFocused();
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

/** Presses `key` until `target` (the first it matches) has the focus: how a keyboard user gets somewhere. */
async function pressUntilFocused(page: Page, key: string, target: Locator, most = 40): Promise<void> {
  const first = target.first();
  for (let presses = 0; presses < most; presses++) {
    if (await first.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(first).toBeFocused();
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
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // Create an album.
  await openSection(page, 'Albums');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'New album' }).click();
  const nameDialog = page.getByRole('dialog', { name: 'New album' });
  await nameDialog.getByRole('textbox', { name: 'Album name' }).fill('Best');
  expect(await seriousViolations(page)).toEqual([]);
  await nameDialog.getByRole('button', { name: 'Create' }).click();
  await expect(nameDialog).toBeHidden();
  await expect(page.getByRole('button', { name: /^Best/ })).toBeVisible();

  // Add, by keyboard only: Tab into the grid, the arrows to the PNG, Space selects it, Tab to the selection bar's
  // Add to album, Tab to the album, Enter (it stays in Trip too).
  await openSection(page, 'Photos');
  const grid = page.getByRole('grid');
  await pressUntilFocused(page, 'Tab', grid.getByRole('button'));
  await pressUntilFocused(page, 'ArrowRight', grid.getByRole('button', { name: shapes, exact: true }));
  await page.keyboard.press('Space');
  const bar = page.getByRole('toolbar', { name: 'Selected items' });
  await expect(bar.getByText('1 selected')).toBeVisible();
  await expect(grid.getByRole('gridcell', { selected: true })).toHaveCount(1);
  await pressUntilFocused(page, 'Tab', bar.getByRole('button', { name: 'Add to album', exact: true }));
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Enter');
  const pick = page.getByRole('dialog', { name: 'Add to album' });
  await expect(pick).toBeVisible();
  await pressUntilFocused(page, 'Tab', pick.getByRole('button', { name: /^Best/ }));
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(pick).toBeHidden();
  await expect(bar).toBeHidden();
  await openAlbum(page, 'Best');
  await expect.poll(() => shown(page)).toEqual([shapes]);
  expect(await seriousViolations(page)).toEqual([]);

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
  const trashDialog = page.getByRole('dialog', { name: 'Move to trash?' });
  await expect(trashDialog).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await trashDialog.getByRole('button', { name: 'Move to trash' }).click();
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
  const dedupDialog = page.getByRole('dialog', { name: 'Remove the duplicates?' });
  await expect(dedupDialog).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await dedupDialog.getByRole('button', { name: 'Remove duplicates' }).click();
  await expect(page.getByText('No duplicates found.')).toBeVisible({ timeout: 30_000 });
  expect(await seriousViolations(page)).toEqual([]);
  await openSection(page, 'Photos');
  await expect.poll(async () => (await shown(page)).length).toBe(2);
  const [kept] = (await shown(page)).filter((title) => title !== shapes);
  expect([sunset, twin]).toContain(kept);
  for (const album of ['Trip', 'Best']) {
    await openAlbum(page, album);
    await expect.poll(() => shown(page)).toContain(kept);
  }

  // The album list's menu by keyboard: Rename (the list shows the new name), and Delete's dialog, cancelled with
  // Escape. Axe scans both dialogs.
  await albumMenu(page, 'Best', 'Rename');
  const rename = page.getByRole('dialog', { name: 'Rename album' });
  await expect(rename).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await rename.getByRole('textbox', { name: 'Album name' }).fill('Favourite places');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toBeHidden();
  await expect(page.getByRole('button', { name: /^Favourite places/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Best/ })).toHaveCount(0);
  await albumMenu(page, 'Favourite places', 'Delete');
  const deleteDialog = page.getByRole('dialog', { name: 'Delete the album “Favourite places”?' });
  await expect(deleteDialog).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(deleteDialog).toBeHidden();
  await expect(page.getByRole('button', { name: /^Favourite places/ })).toBeVisible();

  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
});

/** Bytes of a base58 string (Bitcoin's alphabet), as a link's fragment holds the album key. */
function fromBase58(text: string): Uint8Array {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let value = 0n;
  for (const char of text) {
    const digit = alphabet.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${char}`);
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  for (; value > 0n; value >>= 8n) bytes.unshift(Number(value & 0xffn));
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** The album list's menu of `album`, opened and used by keyboard. */
async function albumMenu(page: Page, album: string, item: string): Promise<void> {
  await openSection(page, 'Albums');
  await page.getByRole('button', { name: `Actions for ${album}` }).focus();
  await page.keyboard.press('Enter');
  const entry = page.getByRole('menuitem', { name: item });
  for (let tries = 0; tries < 5 && !(await entry.evaluate((el) => el === document.activeElement)); tries++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(entry).toBeFocused();
  await page.keyboard.press('Enter');
}

test('an album shared through its Share dialog shows in the other account; leaving and unsharing take it away; a password link', async ({
  page,
  browser,
}) => {
  const ownerProblems = await watchProblems(page);
  const owner = (await createAccount({ app: 'photos' })).account;
  const ownerToken = await passwordLogin(owner, 'photos');
  await signInBrowser(page, 'photos', owner, ownerToken, '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  await uploadFolder(page, 'Shared trip', [shapes, sunset]);
  await expect(cell(page, shapes)).toBeVisible({ timeout: 30_000 });
  const friend = (await createAccount({ app: 'photos' })).account;

  // The owner shares by keyboard from the album's menu; what cannot be shared with is said first.
  await albumMenu(page, 'Shared trip', 'Share');
  const dialog = page.getByRole('dialog', { name: 'Share “Shared trip”' });
  const address = dialog.getByRole('textbox', { name: 'E-mail address' });
  for (const [typed, said] of [
    ['not-an-address', 'Enter a valid e-mail address.'],
    [owner.email, "This is your own address. Enter someone else's."],
    [`nobody-${String(Date.now())}@example.org`, 'No account uses this address. Ask them to sign up first.'],
  ]) {
    await address.fill(typed ?? '');
    await address.press('Enter');
    await expect(address).toHaveAccessibleDescription(said ?? '');
  }
  await address.fill(friend.email);
  await address.press('Enter');
  const sharees = dialog.getByRole('list', { name: 'People the album is shared with' });
  await expect(sharees.getByText(friend.email)).toBeVisible();
  await expect(sharees.getByRole('combobox', { name: `Role of ${friend.email}` })).toHaveValue('VIEWER');

  // A public link with a password: its address carries the album key in the fragment, the server only the token.
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const linkField = dialog.getByTestId('public-link-url');
  await expect(linkField).toHaveValue(/\/shared-albums\?t=[2-9A-Z]{10}#[1-9A-HJ-NP-Za-km-z]+$/);
  await dialog.getByLabel('Password', { exact: true }).fill('open sesame');
  await dialog.getByRole('button', { name: 'Set password' }).click();
  await expect(dialog.getByText('The link asks for a password.')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Link expires' }).selectOption({ label: 'In a week' });
  await expect(dialog.getByText(/^The link expires on /)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const link = new URL(await linkField.inputValue());
  const keys = await openAccountKeys(owner.password, owner.keyAttributes);
  const [album] = (await serverCollections(ownerToken)).filter((each) => each.type === 'album');
  if (!album) throw new Error('the album is not on the server');
  expect(fromBase58(link.hash.slice(1))).toEqual(await openAlbumKey(album, keys));
  const info = await fetch(new URL('/public-collection/info', serverUrl), {
    headers: { 'X-Auth-Access-Token': link.searchParams.get('t') ?? '', 'X-Client-Package': clientPackage('photos') },
  });
  const { collection } = (await info.json()) as {
    collection: { id: number; publicURLs: { passwordEnabled: boolean }[] };
  };
  expect([collection.id, collection.publicURLs[0]?.passwordEnabled]).toEqual([album.id, true]);
  // Copy link puts the same address on the clipboard: that is what the owner sends.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: appUrl('photos') });
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(link.href);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Someone with no account opens the copied link in a fresh context: a wrong password is refused, the right one
  // shows the album's grid with its thumbnails. (The link's other states: photos-public-link.spec.ts.)
  const strangerContext = await browser.newContext({ timezoneId: 'UTC', locale: 'en-US' });
  const stranger = await strangerContext.newPage();
  const strangerProblems = await watchProblems(stranger);
  await stranger.goto(copied);
  const strangerHeading = stranger.getByRole('heading', { level: 1 });
  const passwordField = stranger.getByLabel('Password');
  for (const typed of ['not it', 'open sesame']) {
    await expect(strangerHeading).toHaveText('This album is protected by a password', { timeout: 30_000 });
    await passwordField.fill(typed);
    await passwordField.press('Enter');
    if (typed === 'not it') {
      await expect(stranger.getByRole('main').getByRole('alert')).toHaveText('That password is not right.', {
        timeout: 30_000,
      });
    }
  }
  await expect(strangerHeading).toHaveText('Shared trip', { timeout: 30_000 });
  const linkGrid = stranger.getByRole('grid', { name: 'Shared trip' });
  for (const title of [shapes, sunset]) {
    await expect(linkGrid.locator(`img[alt="${title}"]`)).toBeVisible({ timeout: 30_000 });
  }
  const refused = /status of 401 .*\/public-collection\/verify-password\)$/;
  expect(strangerProblems.consoleErrors.filter((line) => !refused.test(line))).toEqual([]);
  expect([strangerProblems.pageErrors, strangerProblems.cspViolations]).toEqual([[], []]);
  await strangerContext.close();

  // The friend sees the album and its photos.
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

  // The friend leaves it (confirmed): it is gone from their Shared with me, and from the owner's sharees.
  await friendPage.getByRole('button', { name: 'Leave album' }).click();
  const leave = friendPage.getByRole('dialog', { name: 'Leave “Shared trip”?' });
  await expect(leave.getByRole('button', { name: 'Cancel' })).toBeFocused();
  expect(await seriousViolations(friendPage)).toEqual([]);
  await leave.getByRole('button', { name: 'Leave album' }).click();
  await expect(friendPage.getByRole('heading', { level: 1, name: 'Shared with me' })).toBeVisible();
  await expect(friendPage.getByRole('button', { name: /^Shared trip/ })).toHaveCount(0);
  await page.reload();
  await openAlbum(page, 'Shared trip');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(dialog.getByText('Not shared with anyone yet.')).toBeVisible();

  // Shared again, as collaborator, then unshared by the owner (confirmed): the friend's album comes and goes.
  await address.fill(friend.email);
  await dialog.getByRole('combobox', { name: 'Role', exact: true }).selectOption({ label: 'Collaborator' });
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(sharees.getByRole('combobox', { name: `Role of ${friend.email}` })).toHaveValue('COLLABORATOR');
  await friendPage.reload();
  await expect(friendPage.getByRole('button', { name: /^Shared trip/ })).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: `Stop sharing with ${friend.email}` }).click();
  await dialog
    .getByRole('group', { name: /^Stop sharing with / })
    .getByRole('button', { name: 'Stop sharing' })
    .click();
  await expect(dialog.getByText('Not shared with anyone yet.')).toBeVisible();
  await friendPage.reload();
  await expect(friendPage.getByRole('heading', { level: 1, name: 'Shared with me' })).toBeVisible({ timeout: 30_000 });
  await expect(friendPage.getByRole('button', { name: /^Shared trip/ })).toHaveCount(0);

  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
  // The browser reports the 404 of the address without an account itself; nothing else went wrong.
  const expected = /^Failed to load resource: .* 404 .*\/users\/public-key\?email=nobody-/;
  expect(ownerProblems.consoleErrors.filter((line) => expected.test(line))).toHaveLength(1);
  expect({
    ...ownerProblems,
    consoleErrors: ownerProblems.consoleErrors.filter((line) => !expected.test(line)),
  }).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
  await context.close();
});
