// A locked or signed-out tab gives nothing away through the back/forward cache (project `bfcache`: the
// cache is on, as in every real browser, whereas Playwright turns it off by default). After the idle
// lock, and after logout, Back must not bring the vault back, and the heap of the tab must not hold a
// secret of a code it showed: neither a seed (base32) nor a note. The same after logout from the photos
// app: neither the gallery nor the name of an album or a file it showed, nor the master key or the token.
import { randomBytes } from 'node:crypto';

import { expect, test, type CDPSession, type Page } from '@playwright/test';

import { fromB64, fromB64Url } from '@ente/crypto';

import { createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { addCodes } from '../authenticator.ts';
import { findNeedles, needlesOf, type Needle } from '../leak-scan.ts';
import { fixtureFolder, pickFolder } from '../photos-ui.ts';
import { heapSnapshot } from '../probes.ts';
import { appUrl } from '../stack.ts';
import { logOut } from '../ui.ts';

test.describe.configure({ timeout: 120_000 });

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A fresh base32 seed of 32 characters (160 bits), found nowhere but in this test's codes. */
function newSeed(): string {
  return Array.from(randomBytes(32), (byte) => base32Alphabet[byte % 32]).join('');
}

const card = (page: Page, name: RegExp) => page.getByRole('listitem', { name });

/** What Chromium reports when a navigation could not use the back/forward cache (for the failure message). */
async function watchBfcache(page: Page): Promise<{ session: CDPSession; notUsed: string[] }> {
  const session = await page.context().newCDPSession(page);
  const notUsed: string[] = [];
  session.on('Page.backForwardCacheNotUsed', ({ notRestoredExplanations }) => {
    notUsed.push(notRestoredExplanations.map((explanation) => explanation.reason).join(', '));
  });
  await session.send('Page.enable');
  return { session, notUsed };
}

/** Marks the current document, so that the test can tell whether Back brought this very document back. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as Window & { __e2eMarked?: true }).__e2eMarked = true;
  });
}

async function isMarkedDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as Window & { __e2eMarked?: true }).__e2eMarked === true);
}

/** A new account with two codes (one with a note) shown at /auth in `page`; the needles of their secrets. */
async function showCodes(page: Page) {
  const seeds = [newSeed(), newSeed()];
  const note = `Recovery PIN for the vault test ${randomBytes(8).toString('hex')}`;
  const { account } = await createAccount();
  const token = await passwordLogin(account, 'auth');
  const codeDisplay = encodeURIComponent(JSON.stringify({ note }));
  await addCodes(account, token, [
    `otpauth://totp/Bfcache%20One:one@example.org?secret=${seeds[0]}&issuer=Bfcache%20One&codeDisplay=${codeDisplay}`,
    `otpauth://totp/Bfcache%20Two:two@example.org?secret=${seeds[1]}&issuer=Bfcache%20Two`,
  ]);
  const needles = [
    ...seeds.flatMap((seed, index) => needlesOf(`seed ${index + 1}`, Buffer.from(seed))),
    ...needlesOf('the note', Buffer.from(note)),
  ];
  await signInBrowser(page, 'auth', account, token, '/auth');
  await expect(card(page, /Bfcache One/)).toContainText(note);
  await expect(card(page, /Bfcache Two/)).toBeVisible();
  // The check itself finds them while they are shown.
  expect(findNeedles(await heapSnapshot(page), needles)).toEqual(
    expect.arrayContaining([
      'seed 1 as raw bytes / UTF-8',
      'seed 2 as raw bytes / UTF-8',
      'the note as raw bytes / UTF-8',
    ]),
  );
  await markDocument(page);
  return { account, note, needles };
}

/**
 * After a lock or a logout, Back: the page that comes back is not the vault's document (nor any vault), and
 * the tab's heap holds none of the secrets it showed.
 */
async function goBackToNothing(page: Page, needles: Needle[], notUsed: string[]): Promise<void> {
  await page.goBack({ waitUntil: 'commit' });
  expect.soft(findNeedles(await heapSnapshot(page), needles), 'secrets in the heap after Back').toEqual([]);
  expect(await isMarkedDocument(page), `the vault's document came back (${notUsed.join('; ')})`).toBe(false);
  await expect(card(page, /Bfcache/)).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Codes' })).toHaveCount(0);
}

/** Waits for the idle lock (set to one minute): the password step. */
async function waitForTheLock(page: Page): Promise<void> {
  await page.clock.fastForward('01:05');
  await expect(page).toHaveURL(/\/credentials$/);
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
}

test('after the idle lock, Back brings back neither the vault nor a secret it held', async ({ page }) => {
  const { notUsed } = await watchBfcache(page);
  await page.clock.install();
  const { account, note, needles } = await showCodes(page);
  await page.getByRole('button', { name: 'Display options' }).click();
  await page.getByRole('combobox', { name: 'Lock after inactivity' }).selectOption({ label: '1 minute' });
  await page.keyboard.press('Escape');
  await waitForTheLock(page);
  await goBackToNothing(page, needles, notUsed);

  // Unlocked with the password as a person does: the vault's document then also holds the entry of the
  // password step before it. Locked again, Back goes to that entry, which must load afresh.
  await page.goto(`${appUrl('auth')}/auth`);
  await expect(page).toHaveURL(/\/credentials$/);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(card(page, /Bfcache One/)).toContainText(note, { timeout: 30_000 });
  await markDocument(page);
  await waitForTheLock(page);
  await goBackToNothing(page, needles, notUsed);
  await expect(page).toHaveURL(/\/credentials$/);
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
});

test('after logout, Back brings back neither the vault nor a secret it held', async ({ page }) => {
  const { notUsed } = await watchBfcache(page);
  const { needles } = await showCodes(page);
  await logOut(page);
  await expect(page).toHaveURL(/\/login$/);
  await goBackToNothing(page, needles, notUsed);
});

test('after logout from the photos app, Back brings back neither the gallery nor a name or key it held', async ({
  page,
}) => {
  const { notUsed } = await watchBfcache(page);
  const { account } = await createAccount({ app: 'photos' });
  const token = await passwordLogin(account, 'photos');
  await signInBrowser(page, 'photos', account, token, '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  // A folder of one photo, both named here only: the album and the file's title exist nowhere else.
  const tag = randomBytes(8).toString('hex');
  const album = `Back album ${tag}`;
  const title = `back-photo-${tag}.png`;
  await pickFolder(page, await fixtureFolder(album, { [title]: 'shapes.png' }));
  const grid = page.getByRole('grid');
  await expect(grid.locator(`img[alt="${title}"]`)).toBeVisible({ timeout: 120_000 });
  // The original opened in the viewer, then the album list.
  await grid.getByRole('img', { name: title, exact: true }).click();
  const viewer = page.getByRole('dialog', { name: title, exact: true });
  await expect(viewer.getByRole('img', { name: title, exact: true })).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Escape');
  await page.getByRole('navigation').getByRole('link', { name: 'Albums', exact: true }).click();
  await expect(page.getByRole('button', { name: new RegExp(`^${album}`) })).toBeVisible();

  const needles = [
    ...needlesOf('the album name', Buffer.from(album)),
    ...needlesOf('the file name', Buffer.from(title)),
    ...needlesOf('the master key', fromB64(account.masterKey)),
    ...needlesOf('the token', fromB64Url(token)),
  ];
  // The check itself finds the names while they are shown.
  expect(findNeedles(await heapSnapshot(page), needles)).toEqual(
    expect.arrayContaining(['the album name as raw bytes / UTF-8', 'the file name as raw bytes / UTF-8']),
  );
  await markDocument(page);
  await logOut(page);
  await expect(page).toHaveURL(/\/login$/);
  await page.goBack({ waitUntil: 'commit' });
  expect.soft(findNeedles(await heapSnapshot(page), needles), 'secrets in the heap after Back').toEqual([]);
  expect(await isMarkedDocument(page), `the gallery's document came back (${notUsed.join('; ')})`).toBe(false);
  await expect(page.getByRole('grid')).toHaveCount(0);
  await expect(page.getByRole('button', { name: new RegExp(`^${album}`) })).toHaveCount(0);
});
