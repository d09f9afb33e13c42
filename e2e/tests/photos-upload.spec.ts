// The photos app against the real server: a folder of photos and videos (e2e/fixtures/photos: a JPEG with EXIF,
// its duplicate under another name, a rotated JPEG, a PNG, a HEIC, a WebM and an MP4) uploaded through the
// page's folder picker becomes an album of the folder's name; the same file uploaded again is skipped; the grid
// shows each file under its day and the viewer opens each. Then what the server holds is opened with libsodium
// alone from the account's password (photos-oracle.ts) and compared with the files on disk, and the album's ZIP
// download is read back entry by entry. Axe scans the gallery with its files.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';

import { expect, test, type Page } from '@playwright/test';

import { createAccount, passwordLogin, signInBrowser } from '../api.ts';
import { serverCollections, serverFiles, serverObject } from '../photos-api.ts';
import {
  blake2bB64,
  openAccountKeys,
  openAlbumKey,
  openAlbumName,
  openFileKey,
  openMetadata,
  openStream,
} from '../photos-oracle.ts';
import { fixtureFolder, photoFixtures as fixtures, pickFolder, uploadFolder } from '../photos-ui.ts';
import { browserStorage, expectOnlyPreferencesLeft } from '../probes.ts';
import { SecretsCollector } from '../secrets.ts';
import { appUrl, seriousViolations, watchProblems } from '../stack.ts';
import { logOut } from '../ui.ts';
import { readZip } from '../zip-reader.ts';

test.describe.configure({ timeout: 240_000 });
// Days are the browser's local days: UTC here, so the EXIF dates' days are known.
test.use({ timezoneId: 'UTC', locale: 'en-US' });

const album = 'Holiday';

/** The fixture folder's photos and videos (its top level, without the README and the live pair). */
async function fixtureNames(): Promise<string[]> {
  const entries = await readdir(fixtures, { withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && !entry.name.endsWith('.md')).map((entry) => entry.name);
}

/** A folder named `album` holding `names` from the fixtures, in a fresh temporary place; answers its path. */
const folderOf = (names: readonly string[]) => fixtureFolder(album, names);

/** Each file's title and the day heading it is shown under, in the grid's order. */
async function gridDays(page: Page): Promise<Record<string, string>> {
  return page.getByRole('grid').evaluate((grid) => {
    const rows = [...grid.querySelectorAll('[role="row"]')].sort(
      (a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')),
    );
    const days: Record<string, string> = {};
    let day = '';
    for (const row of rows) {
      const heading = row.querySelector('h2');
      if (heading) day = heading.textContent;
      for (const image of row.querySelectorAll('[role="gridcell"] img[alt], [role="gridcell"] [role="img"]')) {
        days[image.getAttribute('alt') ?? image.getAttribute('aria-label') ?? ''] = day;
      }
    }
    return days;
  });
}

const dayHeading = (utc: number) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(utc);

test('a folder uploaded through the page: by day, in the viewer, on the server as uploaded, and as a ZIP', async ({
  page,
}, testInfo) => {
  const problems = await watchProblems(page);
  const names = await fixtureNames();
  expect(names.sort()).toEqual([
    'clip.mp4',
    'clip.webm',
    'garden.heic',
    'portrait-orientation-6.jpg',
    'shapes.png',
    'sunset-exif-gps-duplicate.jpg',
    'sunset-exif-gps.jpg',
  ]);
  const { account } = await createAccount({ app: 'photos' });
  await signInBrowser(page, 'photos', account, await passwordLogin(account, 'photos'), '/gallery');
  // For the leak scan (leaks.spec.ts): the account's keys and token, and below the album and file keys.
  const secrets = await new SecretsCollector(testInfo).fromSignedInPage(page, account.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Photos' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });

  // The folder: every file uploaded (the duplicate has another name, so it is a file of its own).
  await uploadFolder(page, await folderOf(names));
  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByText('Uploaded', { exact: true })).toHaveCount(names.length);

  // The grid: each file under its day (the JPEGs' EXIF days; the others the day they were copied, today).
  const grid = page.getByRole('grid');
  for (const name of names) await expect(grid.getByRole('img', { name, exact: true })).toBeVisible({ timeout: 30_000 });
  const days = await gridDays(page);
  expect(days).toEqual({
    'sunset-exif-gps.jpg': dayHeading(Date.UTC(2024, 5, 15)),
    'sunset-exif-gps-duplicate.jpg': dayHeading(Date.UTC(2024, 5, 15)),
    'portrait-orientation-6.jpg': dayHeading(Date.UTC(2023, 11, 24)),
    'shapes.png': 'Today',
    'garden.heic': 'Today',
    'clip.webm': 'Today',
    'clip.mp4': 'Today',
  });

  // The same file into the same album again: skipped, and said so.
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await uploadFolder(page, await folderOf(['sunset-exif-gps.jpg']));
  await expect(panel.getByText('Already in this album: skipped')).toBeVisible();
  await expect(grid.getByRole('img', { name: 'sunset-exif-gps.jpg', exact: true })).toHaveCount(1);

  // The viewer: each file opens (an image decoded, HEIC included; a video element with its data).
  for (const name of names) {
    await grid.getByRole('img', { name, exact: true }).click();
    const viewer = page.getByRole('dialog', { name, exact: true });
    await expect(viewer).toBeVisible();
    if (name.startsWith('clip.')) {
      const video = viewer.locator('video');
      await expect(video).toHaveCount(1);
      await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThan(0);
    } else {
      const image = viewer.getByRole('img', { name, exact: true });
      await expect(image).toBeVisible({ timeout: 30_000 });
      await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
    }
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
  }

  // Axe: the gallery with its files, the upload panel open.
  expect(await seriousViolations(page)).toEqual([]);

  // The server's copy, opened from the password with libsodium alone: each file's bytes and metadata hash.
  const token = await passwordLogin(account, 'photos');
  const keys = await openAccountKeys(account.password, account.keyAttributes);
  let albumID: number | undefined;
  const uploaded = new Map<string, Uint8Array>();
  for (const collection of await serverCollections(token)) {
    const albumKey = await openAlbumKey(collection, keys);
    if ((await openAlbumName(collection, albumKey)) !== album) continue;
    albumID = collection.id;
    secrets.add('photoKeys', Buffer.from(albumKey).toString('base64'));
    for (const entry of await serverFiles(token, collection.id)) {
      const fileKey = await openFileKey(entry, albumKey);
      secrets.add('photoKeys', Buffer.from(fileKey).toString('base64'));
      const metadata = await openMetadata(entry.metadata, fileKey);
      const title = String(metadata.title);
      const original = new Uint8Array(await readFile(path.join(fixtures, title)));
      const bytes = await openStream(
        await serverObject(token, 'download', entry.id),
        entry.file.decryptionHeader,
        fileKey,
      );
      expect(Buffer.from(bytes).equals(Buffer.from(original)), title).toBe(true);
      expect(metadata.hash, title).toBe(await blake2bB64(original));
      const thumbnail = await openStream(
        await serverObject(token, 'preview', entry.id),
        entry.thumbnail.decryptionHeader,
        fileKey,
      );
      expect([...thumbnail.subarray(0, 2)], `${title}: a JPEG thumbnail`).toEqual([0xff, 0xd8]);
      uploaded.set(title, bytes);
    }
  }
  expect(albumID).toBeDefined();
  await secrets.save();
  expect([...uploaded.keys()].sort()).toEqual(names);

  // The album's ZIP, with no file picker (so the app streams it through its download service worker).
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  await page.goto(`${appUrl('photos')}/gallery?view=albums&album=${String(albumID)}`);
  await expect(page.getByRole('heading', { level: 1, name: album })).toBeVisible({ timeout: 30_000 });
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${album}.zip`);
  const zipPath = path.join(await mkdtemp(path.join(tmpdir(), 'photos-e2e-zip-')), 'album.zip');
  await download.saveAs(zipPath);
  const entries = readZip(await readFile(zipPath));
  expect(entries.map((entry) => entry.name).sort()).toEqual(names);
  for (const entry of entries) {
    const original = await readFile(path.join(fixtures, entry.name));
    expect(entry.bytes.equals(original), entry.name).toBe(true);
    expect(entry.crc32, entry.name).toBe(crc32(original));
  }
  await rm(path.dirname(zipPath), { recursive: true, force: true });

  // Logout leaves no thumbnail, file or key behind: storage and caches hold only the device's preferences, and
  // nothing is left in the origin's private file system. Before it, what it must clear is there: the thumbnails
  // cached, the library's database, the key in session storage; and what a closed tab or Ente's own app on this
  // origin may have left is put there: a staged ciphertext (the upload's staging; these small files were staged in
  // memory), the `files` and `face-crops` caches, the `ente-files` database.
  const before = await browserStorage(page);
  expect({
    thumbs: before.caches.includes('thumbs'),
    library: 'ente-photos-library' in before.databases,
    key: before.session.includes('encryptionKey'),
  }).toEqual({ thumbs: true, library: true, key: true });
  expect(await page.evaluate(async () => (await (await caches.open('thumbs')).keys()).length)).toBeGreaterThanOrEqual(
    names.length,
  );
  await page.evaluate(async () => {
    const bytes = new Uint8Array(64).fill(7);
    await (await caches.open('files')).put('/files/download/1', new Response(bytes));
    await (await caches.open('face-crops')).put('/face-crops/1', new Response(bytes));
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('ente-files');
      open.onupgradeneeded = () => open.result.createObjectStore('files');
      open.onerror = () => reject(open.error ?? new Error('ente-files'));
      open.onsuccess = () => {
        const transaction = open.result.transaction('files', 'readwrite');
        transaction.objectStore('files').put(bytes, 'file-1');
        transaction.oncomplete = () => {
          open.result.close();
          resolve();
        };
      };
    });
    const root = await navigator.storage.getDirectory();
    const staging = await root.getDirectoryHandle('ente-upload-staging', { create: true });
    const writable = await (await staging.getFileHandle('left-by-a-closed-tab', { create: true })).createWritable();
    await writable.write(bytes);
    await writable.close();
  });
  expect((await browserStorage(page)).caches).toEqual(expect.arrayContaining(['thumbs', 'files', 'face-crops']));
  await logOut(page);
  await expectOnlyPreferencesLeft(page);
  const privateFiles = await page.evaluate(async () => {
    const names: string[] = [];
    // The async iterator of a directory handle is not in TypeScript's DOM types yet.
    const root = (await navigator.storage.getDirectory()) as unknown as { keys(): AsyncIterable<string> };
    for await (const name of root.keys()) names.push(name);
    return names;
  });
  expect(privateFiles, 'the origin private file system after logout').toEqual([]);

  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
});

/** A new account signed in on /gallery, with its token and its keys opened by the test's libsodium. */
async function signedInGallery(page: Page) {
  const { account } = await createAccount({ app: 'photos' });
  await signInBrowser(page, 'photos', account, await passwordLogin(account, 'photos'), '/gallery');
  await expect(page.getByText('No photos yet')).toBeVisible({ timeout: 30_000 });
  const token = await passwordLogin(account, 'photos');
  const keys = await openAccountKeys(account.password, account.keyAttributes);
  /** Each album's name with its files' opened metadata, as the server holds them. */
  const albums = async () => {
    const found = new Map<string, { metadata: Record<string, unknown>; bytes: Uint8Array }[]>();
    for (const collection of await serverCollections(token)) {
      const albumKey = await openAlbumKey(collection, keys);
      const files = [];
      for (const entry of await serverFiles(token, collection.id)) {
        const fileKey = await openFileKey(entry, albumKey);
        const metadata = await openMetadata(entry.metadata, fileKey);
        const bytes = await openStream(
          await serverObject(token, 'download', entry.id),
          entry.file.decryptionHeader,
          fileKey,
        );
        files.push({ metadata, bytes });
      }
      found.set(await openAlbumName(collection, albumKey), files);
    }
    return found;
  };
  return { albums };
}

test('a live photo (an image and a video of the same name) uploads as one item that the viewer shows', async ({
  page,
}) => {
  const problems = await watchProblems(page);
  const { albums } = await signedInGallery(page);
  await uploadFolder(
    page,
    await fixtureFolder('Moments', {
      'live-moment.jpg': 'live/live-moment.jpg',
      'live-moment.mov': 'live/live-moment.mov',
    }),
  );
  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  await expect(panel.getByText('Uploaded', { exact: true })).toHaveCount(1);

  const grid = page.getByRole('grid');
  await expect(grid.getByRole('img', { name: 'live-moment.jpg', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(grid.getByRole('img', { name: 'live-moment.mov', exact: true })).toHaveCount(0);
  await grid.getByRole('img', { name: 'live-moment.jpg', exact: true }).click();
  const viewer = page.getByRole('dialog', { name: 'live-moment.jpg', exact: true });
  const image = viewer.getByRole('img', { name: 'live-moment.jpg', exact: true });
  await expect(image).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(480);
  await viewer.getByRole('button', { name: 'Live photo' }).click();
  const video = viewer.locator('video');
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThan(0);
  await page.keyboard.press('Escape');

  // On the server: one file of type 2 whose bytes are the ZIP of the two originals, with both hashes.
  const files = (await albums()).get('Moments') ?? [];
  expect(files).toHaveLength(1);
  const [live] = files;
  const image1 = await readFile(path.join(fixtures, 'live', 'live-moment.jpg'));
  const video1 = await readFile(path.join(fixtures, 'live', 'live-moment.mov'));
  expect(live!.metadata).toMatchObject({
    title: 'live-moment.jpg',
    fileType: 2,
    imageHash: await blake2bB64(image1),
    videoHash: await blake2bB64(video1),
    // The image's EXIF time: 2025-03-01 12:00:00 +01:00.
    creationTime: Date.UTC(2025, 2, 1, 11) * 1000,
  });
  expect(live!.metadata.hash).toBeUndefined();
  const entries = readZip(Buffer.from(live!.bytes));
  expect(entries.map((entry) => entry.name)).toEqual(['image.jpg', 'video.mov']);
  expect(entries[0]!.bytes.equals(image1)).toBe(true);
  expect(entries[1]!.bytes.equals(video1)).toBe(true);
  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
});

test('folders inside a folder: the person chooses one album per folder or one for the whole tree', async ({ page }) => {
  const problems = await watchProblems(page);
  const { albums } = await signedInGallery(page);
  await pickFolder(
    page,
    await fixtureFolder('Trip', { 'shapes.png': 'shapes.png', 'Day 1/sunset.jpg': 'sunset-exif-gps.jpg' }),
  );
  const dialog = page.getByRole('dialog', { name: 'Folders inside folders' });
  await expect(dialog).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // Keyboard only: the first choice has the focus.
  await expect(dialog.getByRole('button', { name: 'One album per folder' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByRole('heading', { name: 'Uploads finished' })).toBeVisible({ timeout: 120_000 });

  await page.getByRole('button', { name: 'Clear finished' }).click();
  await pickFolder(page, await fixtureFolder('Walk', { 'Evening/clip.mp4': 'clip.mp4' }));
  await dialog.getByRole('button', { name: 'One album for the whole tree' }).click();
  await expect(panel.getByRole('heading', { name: 'Uploads finished' })).toBeVisible({ timeout: 120_000 });

  const titles = new Map(
    [...(await albums())].map(([name, files]) => [name, files.map((file) => file.metadata.title)]),
  );
  expect(titles.get('Trip')).toEqual(['shapes.png']);
  expect(titles.get('Day 1')).toEqual(['sunset.jpg']);
  expect(titles.get('Walk')).toEqual(['clip.mp4']);
  expect(titles.has('Evening')).toBe(false);
  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], cspViolations: [] });
});

test('an upload interrupted by a reload resumes: what was sent stays, the rest is sent once picked again', async ({
  page,
}) => {
  const names = ['shapes.png', 'sunset-exif-gps.jpg', 'portrait-orientation-6.jpg', 'clip.mp4'];
  const { albums } = await signedInGallery(page);
  const folder = await folderOf(names);
  // The first file through; every later POST /files is held (never sent) until the page reloads, which drops
  // them. (Removing the route would let the held ones go on.)
  let confirmed = 0;
  let reloaded = false;
  await page.route(
    (url) => url.pathname === '/files',
    async (route) => {
      if (route.request().method() !== 'POST' || confirmed++ === 0 || reloaded) await route.continue();
    },
  );
  await pickFolder(page, folder);
  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByText('Uploaded', { exact: true })).toHaveCount(1, { timeout: 60_000 });
  await expect.poll(() => confirmed, { timeout: 60_000 }).toBeGreaterThan(1);
  await page.reload();
  reloaded = true;

  // What the browser kept names no file: sizes, times and the album's id only.
  const notice = page.getByRole('region', { name: 'Interrupted upload' });
  await expect(notice).toContainText('Files not sent: 3.', { timeout: 30_000 });
  const kept = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('ente-photos-uploads');
        open.onerror = () => reject(new Error('no database'));
        open.onsuccess = () => {
          const all = open.result.transaction('pending').objectStore('pending').getAll();
          all.onsuccess = () => {
            resolve(JSON.stringify(all.result));
            open.result.close();
          };
        };
      }),
  );
  expect(JSON.parse(kept)).toHaveLength(4);
  for (const name of [...names, album]) expect(kept).not.toContain(name.split('.')[0]);
  expect(await seriousViolations(page)).toEqual([]);

  // The same folder again: the one sent is skipped, the three others uploaded into the same album.
  await pickFolder(page, folder);
  await expect(panel.getByRole('heading', { name: 'Uploads finished' })).toBeVisible({ timeout: 120_000 });
  await expect(panel.getByText('Already in this album: skipped')).toHaveCount(1);
  await expect(panel.getByText('Uploaded', { exact: true })).toHaveCount(3);
  await expect(notice).toBeHidden();
  const titles = ((await albums()).get(album) ?? []).map((file) => String(file.metadata.title));
  expect(titles.sort()).toEqual([...names].sort());
});
