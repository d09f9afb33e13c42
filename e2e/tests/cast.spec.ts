// The cast screen against the real server (docs/protocol.md#cast): a context with no account opens the cast page
// and shows a code; the sender's side is done over HTTP here, as a photos client does it (the screen's key read by
// code, the payload sealed to it with libsodium alone, photos-oracle.ts), for an album uploaded through the photos
// app. The screen shows the album's photo full-screen, and revoke-all sends it back to a new code within one poll.
// The second test is the photos app's own sender: "Play on a screen" in the album's view, by keyboard, and Stop.
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { cryptoAPI } from '@ente/crypto/api.ts';

import { api, createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { serverCollections, serverFiles } from '../photos-api.ts';
import { sealAlbumKey } from '../photos-oracle.ts';
import { appUrl, seriousViolations, watchProblems } from '../stack.ts';

test.describe.configure({ timeout: 180_000 });

const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'photos');
const albumName = 'Living room';

/** A new photos account (its token) with an album of one photo uploaded as a folder through the app (id, key b64). */
async function senderWithAlbum(page: Page): Promise<{ token: string; album: { id: number; key: string } }> {
  const { account } = await createAccount({ app: 'photos' });
  const token = await passwordLogin(account, 'photos');
  await signInBrowser(page, 'photos', account, token, '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  const folder = path.join(await mkdtemp(path.join(tmpdir(), 'cast-e2e-')), albumName);
  await mkdir(folder);
  await copyFile(path.join(fixtures, 'shapes.png'), path.join(folder, 'shapes.png'));
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page
      .getByRole('button', { name: 'Upload' })
      .click()
      .then(() => page.getByRole('menuitem', { name: 'A folder…' }).click()),
  ]);
  await chooser.setFiles(folder);
  await expect(page.getByRole('heading', { name: 'Uploads finished' })).toBeVisible({ timeout: 120_000 });
  // The account's only album with a file in it.
  for (const { id, encryptedKey, keyDecryptionNonce } of await serverCollections(token)) {
    if (!keyDecryptionNonce || (await serverFiles(token, id)).length === 0) continue;
    return {
      token,
      album: { id, key: await cryptoAPI.decryptBox(encryptedKey, keyDecryptionNonce, account.masterKey) },
    };
  }
  throw new Error('the upload made no album');
}

const codeOf = async (page: Page) => {
  const code = page.getByTestId('cast-code');
  await expect(code).toHaveText(/^[A-Z1-9]{6}$/, { timeout: 30_000 });
  return (await code.textContent()) ?? '';
};

test('a screen pairs by its code, shows the album, and goes back to a new code when the cast is revoked', async ({
  page,
  browser,
}) => {
  const { token, album } = await senderWithAlbum(page);

  const context = await browser.newContext({ locale: 'en-US' });
  const screen = await context.newPage();
  const problems = await watchProblems(screen);
  await screen.goto(`${appUrl('cast')}/`);
  await expect(screen.getByText('In Ente Photos, open an album → Play on a screen, and enter this code')).toBeVisible({
    timeout: 30_000,
  });
  const code = await codeOf(screen);
  expect(await seriousViolations(screen)).toEqual([]);
  // Nothing of the pairing is kept in the screen's storage.
  expect(await screen.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);

  // The sender: a wrong code is refused; the screen's key by its code (in any case), the payload sealed to it.
  await expect(api('photos', 'GET', '/cast/device-info/ZZZZZ9', { token })).rejects.toMatchObject({ status: 404 });
  const { publicKey } = await api<{ publicKey: string }>('photos', 'GET', `/cast/device-info/${code.toLowerCase()}`, {
    token,
  });
  const castToken = `cast_${'e2eScreenToken'.padEnd(22, 'x')}`;
  const payload = JSON.stringify({ castToken, collectionID: album.id, collectionKey: album.key });
  const encPayload = await sealAlbumKey(new TextEncoder().encode(payload), publicKey);
  await api('photos', 'POST', '/cast/cast-data', {
    token,
    body: { deviceCode: code, collectionID: album.id, castToken, encPayload },
  });

  // The first slide: the photo, decoded, full-screen, without a cursor.
  const slideshow = screen.getByTestId('cast-slideshow');
  const slide = slideshow.getByRole('img', { name: 'A photo from the album' });
  await expect(slide).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => slide.last().evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  expect(await slideshow.evaluate((element) => getComputedStyle(element).cursor)).toBe('none');
  expect(await seriousViolations(screen)).toEqual([]);

  // Revoked: back to pairing with a new code and the reason, within one poll of the album (a round of one photo
  // reads the diff at every slide, 10 s).
  await api('photos', 'DELETE', '/cast/revoke-all-tokens', { token });
  await expect(screen.getByText(/casting was stopped, or the album is no longer shared/)).toBeVisible({
    timeout: 20_000,
  });
  const next = await codeOf(screen);
  expect(next).not.toBe(code);
  await expect(slideshow).toHaveCount(0);
  // (the console has the failed requests a screen makes on purpose: the 401 that ended the cast)
  expect(problems.pageErrors).toEqual([]);
  expect(problems.cspViolations).toEqual([]);
  await context.close();
});

test('the photos app pairs a screen through "Play on a screen" (keyboard only), and Stop sends it back to a new code', async ({
  page,
  browser,
}) => {
  await senderWithAlbum(page);
  const pageProblems = await watchProblems(page);
  const context = await browser.newContext({ locale: 'en-US' });
  const screen = await context.newPage();
  await screen.goto(`${appUrl('cast')}/`);
  const code = await codeOf(screen);

  await page.getByRole('navigation').getByRole('link', { name: 'Albums', exact: true }).click();
  await page.getByRole('button', { name: new RegExp(`^${albumName}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: albumName })).toBeVisible();
  await page.getByRole('button', { name: 'Play on a screen' }).click();
  const dialog = page.getByRole('dialog', { name: `Play “${albumName}” on a screen` });
  // The dialog says where a screen opens the cast page: the local stack's cast app.
  await expect(dialog.getByText(`${appUrl('cast')}/`, { exact: true })).toBeVisible();
  const field = dialog.getByRole('textbox', { name: 'Code on the screen' });
  await expect(field).toBeFocused();

  // A code no screen shows is refused in words; then the screen's code, typed in lower case.
  await page.keyboard.type('zzzzz9');
  await page.keyboard.press('Enter');
  await expect(field).toHaveAccessibleDescription(/No screen shows this code, or it has expired/);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(code.toLowerCase());
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('The screen is playing the album.')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole('button', { name: 'Stop' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);

  const slideshow = screen.getByTestId('cast-slideshow');
  const slide = slideshow.getByRole('img', { name: 'A photo from the album' });
  await expect(slide).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => slide.last().evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

  // Stop: the screen is back to pairing with a new code within one poll.
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Stopped. The screen shows a new code.')).toBeVisible();
  await expect(screen.getByText(/casting was stopped, or the album is no longer shared/)).toBeVisible({
    timeout: 20_000,
  });
  expect(await codeOf(screen)).not.toBe(code);
  await expect(slideshow).toHaveCount(0);
  expect(pageProblems.pageErrors).toEqual([]);
  expect(pageProblems.cspViolations).toEqual([]);
  await context.close();
});
