// A public album link opened without an account, against the real server (docs/protocol.md#public-links): the
// owner uploads a folder through the app; the link is made over HTTP with the steps the library takes
// (POST /collections/share-url, the password hashed by `hashLinkPassword`, PUT /collections/share-url, the album key
// in the fragment in base58), so that its states can be changed between visits. (A link made in the share dialog,
// copied and opened in a fresh context: photos-albums.spec.ts.)
// Then a fresh browser context with no account opens it: a wrong password refused, the right one shows the grid
// and the viewer, the album's ZIP holds the uploaded bytes, an original the server fails to send is said failed in
// the download panel and saved by Try again, no download is offered once the link forbids it, and a
// wrong key, an expired link and a disabled link are each said so. Axe on every state.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { cryptoAPI } from '@ente/crypto/api.ts';

import { api, createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { serverCollections } from '../photos-api.ts';
import { fixtureFolder, photoFixtures as fixtures, uploadFolder } from '../photos-ui.ts';
import { seriousViolations, watchProblems } from '../stack.ts';
import { readZip } from '../zip-reader.ts';

test.describe.configure({ timeout: 240_000 });

const titles = ['shapes.png', 'sunset-exif-gps.jpg'];
const albumName = 'Open day';
const linkPassword = 'a shared secret';

/** The album's id and key (b64), its key opened with the owner's master key as their library does. */
async function ownerAlbum(token: string, masterKey: string): Promise<{ id: number; key: string }> {
  for (const collection of await serverCollections(token)) {
    if (!collection.keyDecryptionNonce) continue;
    const key = await cryptoAPI.decryptBox(collection.encryptedKey, collection.keyDecryptionNonce, masterKey);
    const name = await cryptoAPI.decryptBox(collection.encryptedName, collection.nameDecryptionNonce, key);
    if (Buffer.from(name, 'base64').toString() === albumName) return { id: collection.id, key };
  }
  throw new Error(`no album ${albumName}`);
}

/**
 * The link to share: the server's URL with the album key in the fragment, base58 (Bitcoin's alphabet), written here
 * with BigInt, apart from the app's own encoder.
 */
function shareableLink(url: string, keyB64: string): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const bytes = Buffer.from(keyB64, 'base64');
  let rest = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  for (; rest > 0n; rest /= 58n) text = `${alphabet[Number(rest % 58n)] ?? ''}${text}`;
  const zeros = bytes.findIndex((byte) => byte !== 0);
  return `${url}#${'1'.repeat(zeros < 0 ? bytes.length : zeros)}${text}`;
}

/** PUT /collections/share-url with `changes`, as the owner's library does. */
const changeLink = (token: string, collectionID: number, changes: Record<string, unknown>) =>
  api('photos', 'PUT', '/collections/share-url', { token, body: { collectionID, ...changes } });

/** The page's own alert (Next's route announcer is one too, outside <main>). */
const alert = (page: Page) => page.getByRole('main').getByRole('alert');

/** The text of the page's one h1. */
const heading = (page: Page) => page.getByRole('heading', { level: 1 });

async function enterPassword(page: Page, password: string): Promise<void> {
  await expect(heading(page)).toHaveText('This album is protected by a password', { timeout: 30_000 });
  const field = page.getByLabel('Password');
  await expect(field).toBeFocused();
  await field.fill(password);
  await page.keyboard.press('Enter');
}

test('a password link opens in a fresh context; wrong key, expired and disabled links are said so', async ({
  page,
  browser,
}) => {
  const { account } = await createAccount({ app: 'photos' });
  const token = await passwordLogin(account, 'photos');
  await signInBrowser(page, 'photos', account, token, '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  await uploadFolder(page, await fixtureFolder(albumName, titles));
  const album = await ownerAlbum(token, account.masterKey);

  const { result } = await api<{ result: { url: string } }>('photos', 'POST', '/collections/share-url', {
    token,
    body: { collectionID: album.id },
  });
  await changeLink(token, album.id, await cryptoAPI.hashLinkPassword(linkPassword));
  const link = shareableLink(result.url, album.key);
  expect(new URL(link).pathname).toBe('/shared-albums');

  // No account here, and no file picker: the ZIP is saved through the download service worker.
  const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-US', acceptDownloads: true });
  await context.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  const visitor = await context.newPage();
  const problems = await watchProblems(visitor);
  const passwordTokens: string[] = [];
  visitor.on('response', (response) => {
    if (response.url().endsWith('/public-collection/verify-password') && response.ok()) {
      void response.json().then((body: { jwtToken: string }) => passwordTokens.push(body.jwtToken));
    }
  });

  await visitor.goto(link);
  await enterPassword(visitor, 'not the password');
  await expect(alert(visitor)).toHaveText('That password is not right.', { timeout: 30_000 });
  expect(await seriousViolations(visitor)).toEqual([]);
  await enterPassword(visitor, linkPassword);
  await expect(heading(visitor)).toHaveText(albumName, { timeout: 30_000 });
  expect(new URL(visitor.url()).pathname).toBe('/shared-albums');
  const grid = visitor.getByRole('grid', { name: albumName });
  // The thumbnails opened (images, not placeholders).
  for (const title of titles) await expect(grid.locator(`img[alt="${title}"]`)).toBeVisible({ timeout: 30_000 });
  expect(await seriousViolations(visitor)).toEqual([]);

  // The viewer by keyboard: Enter on a cell opens the newest file, decoded from its original; the arrows move, Escape
  // closes it.
  await grid.getByRole('button').first().focus();
  await visitor.keyboard.press('Enter');
  const viewer = visitor.getByRole('dialog');
  const shown = viewer.getByRole('heading', { level: 2 });
  const first = (await shown.textContent()) ?? '';
  expect(titles).toContain(first);
  const image = viewer.getByRole('img', { name: first, exact: true });
  await expect(image).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  expect(await seriousViolations(visitor)).toEqual([]);
  await visitor.keyboard.press('ArrowRight');
  await expect(shown).not.toHaveText(first);
  await visitor.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // Downloads are allowed: the album's ZIP holds the bytes uploaded.
  const [download] = await Promise.all([
    visitor.waitForEvent('download', { timeout: 60_000 }),
    visitor.getByRole('button', { name: 'Download album' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${albumName}.zip`);
  const zipped = readZip(await readFile(await download.path()));
  const asBase64 = (bytes: Buffer) => bytes.toString('base64');
  expect(Object.fromEntries(zipped.map((entry) => [entry.name, asBase64(entry.bytes)]))).toEqual(
    Object.fromEntries(
      await Promise.all(titles.map(async (title) => [title, asBase64(await readFile(path.join(fixtures, title)))])),
    ),
  );

  // The download panel follows it: fetched with the download, it says how it ended.
  const panel = visitor.getByRole('region', { name: 'Downloads' });
  await expect(panel.getByText('Downloaded')).toBeVisible();

  // An original the server fails to send: the panel says the download failed and why; Try again (by keyboard)
  // saves it once the server sends it again.
  const originals = '**/public-collection/files/download/**';
  await context.route(originals, (route) => route.fulfill({ status: 500, body: '{}' }));
  const one = titles[0] ?? '';
  await grid.getByRole('img', { name: one, exact: true }).click({ modifiers: ['ControlOrMeta'] });
  await visitor.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Download' }).click();
  await expect(panel.getByText('Failed: the server could not send it')).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('heading', { name: 'Downloads ended — failed: 1' })).toBeVisible();
  expect(await seriousViolations(visitor)).toEqual([]);
  await context.unroute(originals);
  const [again] = await Promise.all([
    visitor.waitForEvent('download', { timeout: 60_000 }),
    panel.getByRole('button', { name: `Try downloading ${one} again` }).press('Enter'),
  ]);
  expect(again.suggestedFilename()).toBe(one);
  expect(await readFile(await again.path())).toEqual(await readFile(path.join(fixtures, one)));
  await expect(panel.getByRole('heading', { name: 'Downloads finished' })).toBeVisible();

  // Nothing of the link in browser storage: no key, no password token, no thumbs cache.
  expect(passwordTokens).toHaveLength(1);
  const stored = await visitor.evaluate(async () => ({
    text: JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)]),
    caches: await caches.keys(),
  }));
  for (const secret of [new URL(link).hash.slice(1), passwordTokens[0] ?? '']) {
    expect(stored.text).not.toContain(secret);
  }
  expect(stored.caches).not.toContain('thumbs');

  // The owner forbids downloads: after a reload (the password asked again) none is offered.
  await changeLink(token, album.id, { enableDownload: false });
  await visitor.reload();
  await enterPassword(visitor, linkPassword);
  await expect(heading(visitor)).toHaveText(albumName, { timeout: 30_000 });
  await expect(grid.locator(`img[alt="${titles[0] ?? ''}"]`)).toBeVisible({ timeout: 30_000 });
  await expect(visitor.getByRole('button', { name: 'Download album' })).toHaveCount(0);
  await grid.getByRole('img', { name: titles[0], exact: true }).click({ modifiers: ['ControlOrMeta'] });
  const bar = visitor.getByRole('toolbar', { name: 'Selected items' });
  await expect(bar.getByText('1 selected')).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Download' })).toHaveCount(0);
  expect(await seriousViolations(visitor)).toEqual([]);

  // A key that does not open the album: a wrong link, said before any password.
  await visitor.goto(shareableLink(result.url, await cryptoAPI.generateKey()));
  await expect(heading(visitor)).toHaveText('This link does not open an album', { timeout: 30_000 });
  await expect(alert(visitor)).toContainText('the part after the # sign');
  expect(await seriousViolations(visitor)).toEqual([]);

  // Expired: its end date passes.
  await changeLink(token, album.id, { validTill: Date.now() * 1000 + 2_000_000 });
  await visitor.waitForTimeout(2_500);
  await visitor.goto(link);
  await expect(heading(visitor)).toHaveText('This link has expired', { timeout: 30_000 });
  expect(await seriousViolations(visitor)).toEqual([]);

  // Disabled by the owner (the visitor reloads the page).
  await api('photos', 'DELETE', `/collections/share-url/${String(album.id)}`, { token });
  await visitor.reload();
  await expect(heading(visitor)).toHaveText('This link is no longer active', { timeout: 30_000 });
  await expect(alert(visitor)).toContainText('turned the link off');
  expect(await seriousViolations(visitor)).toEqual([]);

  // The refusals the page was built to meet are the only failed loads Chromium reports.
  const expected = /status of (401|410) .*\/public-collection\/(verify-password|info)\)$/;
  expect(problems.consoleErrors.filter((error) => !expected.test(error))).toEqual([]);
  expect(problems.pageErrors).toEqual([]);
  expect(problems.cspViolations).toEqual([]);
  await context.close();
});
