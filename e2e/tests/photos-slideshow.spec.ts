// The photos app's slideshow and download panel against the real server: a folder of four photos (one HEIC)
// uploaded as an album; its slideshow started from the album's top bar goes from photo to photo in the grid's order
// (each one drawn, never a blank frame), pauses, moves with the arrow keys, is axe-clean and ends with Escape (full screen left too);
// one started from the selection bar shows the selected photo. Then the album's ZIP (through the download service
// worker, as Firefox and Safari save it) shows its progress in the download panel while the originals come, and says
// when it is done. The ZIP's bytes are checked in photos-upload.spec.ts.
import { copyFile, mkdir, mkdtemp, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { expect, test, type Page } from '@playwright/test';

import { createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { pickFolder } from '../photos-ui.ts';
import { seriousViolations, watchProblems } from '../stack.ts';

test.describe.configure({ timeout: 240_000 });
// Days are the browser's local days: UTC here, so the EXIF dates' days, and the grid's order, are known.
test.use({ timezoneId: 'UTC', locale: 'en-US' });

const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'photos');
const album = 'Slides';
// The grid's order, newest first: the PNG and the HEIC have their file's time (set below: now, a minute before), the
// two JPEGs their EXIF dates (2024, 2023). The HEIC is shown as the viewer shows it (converted where need be).
const photos = ['shapes.png', 'garden.heic', 'sunset-exif-gps.jpg', 'portrait-orientation-6.jpg'];

async function uploadFolder(page: Page): Promise<void> {
  const folder = path.join(await mkdtemp(path.join(tmpdir(), 'photos-e2e-')), album);
  await mkdir(folder);
  for (const [i, name] of photos.entries()) {
    await copyFile(path.join(fixtures, name), path.join(folder, name));
    const time = new Date(Date.now() - i * 60_000);
    await utimes(path.join(folder, name), time, time);
  }
  await pickFolder(page, folder);
  await expect(page.getByRole('heading', { name: 'Uploads finished' })).toBeVisible({ timeout: 120_000 });
}

async function openAlbum(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'Albums', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Albums' })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(`^${album}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: album })).toBeVisible();
}

/** The slide on top (the one shown), once it is drawn: its title. */
async function shownSlide(page: Page): Promise<string> {
  const slide = page.getByRole('dialog').getByRole('img');
  await expect(slide).toHaveCount(1);
  // Decoded before it was put on screen: it has its pixels.
  expect(await slide.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  return (await slide.getAttribute('alt')) ?? '';
}

test('a slideshow of an album and of a selection; the download panel follows an album’s ZIP', async ({ page }) => {
  const problems = await watchProblems(page);
  // No file picker: the ZIP goes through the app's download service worker.
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  const { account } = await createAccount({ app: 'photos' });
  await signInBrowser(page, 'photos', account, await passwordLogin(account, 'photos'), '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  await uploadFolder(page);
  await openAlbum(page);
  const grid = page.getByRole('grid');
  for (const name of photos)
    await expect(grid.getByRole('img', { name, exact: true })).toBeVisible({ timeout: 30_000 });

  // From the album's top bar: the first photo of the grid first, then the others in turn at the time chosen.
  await page.getByRole('button', { name: 'Slideshow', exact: true }).click();
  const show = page.getByRole('dialog');
  await expect(show.getByRole('img', { name: photos[0] })).toBeVisible({ timeout: 30_000 });
  expect(await shownSlide(page)).toBe(photos[0]);
  await expect(show.getByText(`1 of ${String(photos.length)}`)).toBeVisible();
  await show.getByRole('button', { name: '3 s', exact: true }).click();
  await expect(show.getByRole('button', { name: '3 s', exact: true })).toHaveAttribute('aria-pressed', 'true');
  for (const name of photos.slice(1)) {
    await expect(show.getByRole('img', { name })).toBeVisible({ timeout: 10_000 });
    expect(await shownSlide(page)).toBe(name);
  }

  // Paused, it stays; the arrows move by hand (round again after the last).
  await show.getByRole('button', { name: 'Pause' }).click();
  await expect(show.getByRole('button', { name: 'Play' })).toBeVisible();
  const paused = await shownSlide(page);
  await page.waitForTimeout(4000);
  expect(await shownSlide(page)).toBe(paused);
  expect(await seriousViolations(page)).toEqual([]);
  await show.getByRole('button', { name: 'Play' }).focus();
  await page.keyboard.press('ArrowRight');
  const after = photos[(photos.indexOf(paused) + 1) % photos.length] ?? '';
  await expect(show.getByRole('img', { name: after })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(show.getByRole('img', { name: paused })).toBeVisible();

  // Escape ends it, and leaves full screen.
  await page.keyboard.press('Escape');
  await expect(show).toBeHidden();
  expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();

  // From the selection bar: the selected photo.
  await grid.getByRole('img', { name: photos[2], exact: true }).click({ modifiers: ['ControlOrMeta'] });
  await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Slideshow' }).click();
  await expect(show.getByRole('img', { name: photos[2] })).toBeVisible({ timeout: 30_000 });
  await show.getByRole('button', { name: 'Leave the slideshow' }).click();
  await expect(show).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('toolbar', { name: 'Selected items' })).toBeHidden();

  // The album's ZIP: the panel shows it running (the originals are held back a moment, so that it can be seen),
  // with the files and bytes done of the total and the file being read, then done.
  await page.route('**/files/download/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Downloads' });
  await expect(panel.getByRole('heading', { name: 'Downloading — downloads left: 1' })).toBeVisible();
  await expect(panel.getByText(`${album}.zip`)).toBeVisible();
  await expect(panel.getByText(new RegExp(`^Files: \\d of ${String(photos.length)} · `))).toBeVisible();
  await expect(panel.getByText(/^Now: /)).toBeVisible();
  await expect(panel.getByRole('progressbar', { name: `Progress of ${album}.zip` })).toBeVisible();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${album}.zip`);
  await expect(panel.getByRole('heading', { name: 'Downloads finished' })).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByText('Downloaded', { exact: true })).toBeVisible();
  await expect(panel.getByText(/Left out/)).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await panel.getByRole('button', { name: 'Clear finished' }).click();
  await expect(panel).toBeHidden();

  expect(problems.pageErrors).toEqual([]);
  expect(problems.cspViolations).toEqual([]);
});
