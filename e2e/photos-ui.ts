// The photos app's upload steps as a person takes them, shared by the photos browser tests: a folder of fixtures
// (fixtures/photos) made in a fresh temporary place, picked through the Upload menu's folder picker.
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { expect, type Page } from '@playwright/test';

export const photoFixtures = path.join(import.meta.dirname, 'fixtures', 'photos');

/**
 * A folder `top` in a fresh temporary place holding each fixture at its path: `files` maps a path in the folder to a
 * fixture (relative to the fixtures), or lists fixtures kept under their names. Answers the folder's path.
 */
export async function fixtureFolder(top: string, files: Record<string, string> | readonly string[]): Promise<string> {
  const folder = path.join(await mkdtemp(path.join(tmpdir(), 'photos-e2e-')), top);
  await mkdir(folder);
  const entries: [string, string][] = Array.isArray(files)
    ? files.map((name: string): [string, string] => [name, name])
    : Object.entries(files);
  for (const [at, fixture] of entries) {
    await mkdir(path.dirname(path.join(folder, at)), { recursive: true });
    await copyFile(path.join(photoFixtures, fixture), path.join(folder, at));
  }
  return folder;
}

/** Picks `folder` through the Upload menu's "A folder…" (without waiting for the uploads). */
export async function pickFolder(page: Page, folder: string): Promise<void> {
  // Listened for first: Playwright turns the browser's file chooser interception on when a listener is added, without
  // waiting for it; a pick right after could open the picker before (tests/photos-albums.spec.ts saw it by keyboard).
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('menuitem', { name: 'A folder…' }).click();
  await (await chooser).setFiles(folder);
}

/** Picks `folder` through the Upload menu's "A folder…" and waits for the panel to say every file ended. */
export async function uploadFolder(page: Page, folder: string): Promise<void> {
  await pickFolder(page, folder);
  const panel = page.getByRole('region', { name: 'Uploads' });
  await expect(panel.getByRole('heading', { name: 'Uploads finished' })).toBeVisible({ timeout: 120_000 });
}
