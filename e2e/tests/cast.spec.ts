// The cast screen against the real server (docs/protocol.md#cast): a context with no account opens the cast page
// and shows a code; the sender's side is done over HTTP here, as a photos client does it (the screen's key read by
// code, the payload sealed to it with libsodium alone, photos-oracle.ts), for an album uploaded through the photos
// app. A code expires (the test stack's live 10 s, global-setup.ts) and is refused, as is a wrong one; the screen
// shows the album's photo full-screen, then, in a later round, the photos added to the album (a HEIC converted, a
// live photo's image); the cast token opens no account route and no photo of another album; revoke-all sends the screen back to a new code within
// one poll. The second test is the photos app's own sender: "Play on a screen" in the album's view, by keyboard,
// and Stop.
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { cryptoAPI } from '@ente/crypto/api.ts';

import { api, createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { serverCollections, serverFiles } from '../photos-api.ts';
import { sealAlbumKey } from '../photos-oracle.ts';
import { fixtureFolder, uploadFolder } from '../photos-ui.ts';
import { appUrl, seriousViolations, serverUrl, watchProblems } from '../stack.ts';

test.describe.configure({ timeout: 180_000 });

const albumName = 'Living room';

/** Uploads `files` (of the fixtures) as a folder named `name` through the app's Upload menu: to that album. */
const uploadToAlbum = async (page: Page, files: readonly string[], name = albumName): Promise<void> =>
  uploadFolder(page, await fixtureFolder(name, Object.fromEntries(files.map((file) => [path.basename(file), file]))));

/** A new photos account (its token) with an album of one photo uploaded as a folder through the app (id, key b64). */
async function senderWithAlbum(page: Page): Promise<{ token: string; album: { id: number; key: string } }> {
  const { account } = await createAccount({ app: 'photos' });
  const token = await passwordLogin(account, 'photos');
  await signInBrowser(page, 'photos', account, token, '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  await uploadToAlbum(page, ['shapes.png']);
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

type ShownSlide = { id: number; source: string | null; width: number };

/** Records on the screen every slide picture that loads (its file id, original or thumbnail, its width). */
function recordSlides() {
  const shown: ShownSlide[] = [];
  Object.assign(window, { castSlidesShown: shown });
  document.addEventListener(
    'load',
    (event) => {
      const image = event.target;
      if (!(image instanceof HTMLImageElement) || !image.dataset.fileId) return;
      shown.push({
        id: Number(image.dataset.fileId),
        source: image.dataset.slideSource ?? null,
        width: image.naturalWidth,
      });
    },
    true,
  );
}

const slidesShown = (screen: Page) =>
  screen.evaluate(() => (window as unknown as { castSlidesShown: ShownSlide[] }).castSlidesShown);

test('a screen pairs by its code (an expired or wrong one refused), shows the album and, a round later, its new photos, and goes back to a new code when the cast is revoked', async ({
  page,
  browser,
}) => {
  const { token, album } = await senderWithAlbum(page);

  const context = await browser.newContext({ locale: 'en-US' });
  await context.addInitScript(recordSlides);
  const screen = await context.newPage();
  const problems = await watchProblems(screen);
  // Slides of 2 s (the page's setting), so that rounds pass quickly.
  await screen.goto(`${appUrl('cast')}/?slideSeconds=2`);
  await expect(screen.getByText('In Ente Photos, open an album → Play on a screen, and enter this code')).toBeVisible({
    timeout: 30_000,
  });
  const expired = await codeOf(screen);
  expect(await seriousViolations(screen)).toEqual([]);
  // Nothing of the pairing is kept in the screen's storage.
  expect(await screen.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);

  // The first code expires unpaired: the screen shows a new one by itself, and the old one is refused like a wrong
  // one (404, which the photos app says as "no screen shows this code, or it has expired").
  await expect(screen.getByTestId('cast-code')).not.toHaveText(expired, { timeout: 40_000 });
  const code = await codeOf(screen);
  for (const refused of [expired, 'ZZZZZ9']) {
    await expect(api('photos', 'GET', `/cast/device-info/${refused}`, { token })).rejects.toMatchObject({
      status: 404,
    });
  }

  // The sender: the screen's key by its code (in any case), the payload sealed to it.
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
  // The cast token is no credential on an account route.
  await expect(
    api('photos', 'GET', '/collections/v2', { token: castToken, query: { sinceTime: '0' } }),
  ).rejects.toMatchObject({ status: 401 });

  // Photos added to the album (a HEIC, which Chromium does not decode, and a live photo) are shown, each by its
  // original (the HEIC converted to JPEG, the live photo's image from its ZIP), in a later round.
  const [first] = await serverFiles(token, album.id);
  await uploadToAlbum(page, ['garden.heic', 'live/live-moment.jpg', 'live/live-moment.mov']);
  // (the upload panel may still say the first upload finished: the album's files tell)
  await expect.poll(async () => (await serverFiles(token, album.id)).length, { timeout: 120_000 }).toBe(3);
  const added = (await serverFiles(token, album.id)).map(({ id }) => id).filter((id) => id !== first?.id);
  expect(added).toHaveLength(2);
  await expect
    .poll(
      async () => {
        const shown = await slidesShown(screen);
        return added.map((id) => shown.find((slide) => slide.id === id && slide.source === 'original')?.width ?? 0);
      },
      { timeout: 60_000 },
    )
    // garden.heic is 600 px wide, live-moment.jpg 480.
    .toEqual(expect.arrayContaining([600, 480]));
  expect((await slidesShown(screen)).filter((slide) => slide.source !== 'original')).toEqual([]);

  // The cast token reads no other album: a photo of the same account's second album is refused as unknown, though
  // the album's own photos are served.
  await uploadToAlbum(page, ['portrait-orientation-6.jpg'], 'Kitchen');
  const cast = new Set([first?.id, ...added]);
  // (the upload panel may still say the earlier upload finished: the server's albums tell)
  const elsewhere = async () => {
    for (const { id } of await serverCollections(token)) {
      if (id === album.id) continue;
      const file = (await serverFiles(token, id)).find((row) => !cast.has(row.id));
      if (file) return file.id;
    }
    return undefined;
  };
  await expect.poll(elsewhere, { timeout: 120_000 }).toBeDefined();
  const castRead = (fileID: number | undefined) =>
    fetch(`${serverUrl}/cast/files/preview/${fileID}`, {
      headers: { 'X-Cast-Access-Token': castToken },
      redirect: 'manual',
    });
  expect((await castRead(added[0])).status).toBe(307);
  expect((await castRead(await elsewhere())).status).toBe(404);

  // Revoked: back to pairing with a new code and the reason, within one poll of the album (the album is read again
  // at each round, 3 slides of 2 s).
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
  // The screen opened now, so that its code is fresh (the test stack's live 10 s).
  await screen.goto(`${appUrl('cast')}/`);
  const code = await codeOf(screen);
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
