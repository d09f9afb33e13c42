import { readFileSync } from 'node:fs';
import path from 'node:path';

import { brandIndex } from '../../scripts/brand-icons.mjs';
import { findBrandIcon, loadBrandIndex, normalisedName, readableOn, type BrandIndex } from './brand-icons.ts';

// The real index as the build script writes it from simple-icons' data.
const iconsData = require.resolve('simple-icons/icons.json');
function realIndex(): BrandIndex {
  const icons = JSON.parse(readFileSync(iconsData, 'utf8')) as Parameters<typeof brandIndex>[0];
  return brandIndex(icons, 'test');
}

test('normalisation strips case, accents, spaces and punctuation', () => {
  expect(normalisedName('  Crédit Agricole! ')).toBe('creditagricole');
});

test('matches by iconID first, then by issuer in its usual spellings', () => {
  const index = realIndex();
  expect(findBrandIcon(index, '', 'GitHub')?.slug).toBe('github');
  expect(findBrandIcon(index, '', 'github.com')?.slug).toBe('github');
  expect(findBrandIcon(index, '', 'accounts.google.com')?.slug).toBe('google');
  expect(findBrandIcon(index, '', 'Dev.to')?.slug).toBe('devdotto');
  expect(findBrandIcon(index, '', 'Google Workspace')?.slug).toMatch(/^google/);
  expect(findBrandIcon(index, 'gitlab', 'GitHub')?.slug).toBe('gitlab');
  expect(findBrandIcon(index, '', 'Definitely no such brand')).toBeUndefined();
  expect(findBrandIcon(index, '', '')).toBeUndefined();
  const github = findBrandIcon(index, '', 'GitHub');
  expect(github).toEqual({ slug: 'github', color: '#181717', url: '/brand-icons/github.svg' });
});

test('an issuer with hidden characters gets no brand icon by its name', () => {
  const index = realIndex();
  expect(findBrandIcon(index, '', 'goo\u200Bgle.com')).toBeUndefined();
  expect(findBrandIcon(index, '', '\u202EGitHub')).toBeUndefined();
  // What the code's own iconID says still counts.
  expect(findBrandIcon(index, 'github', 'Git\u200DHub')?.slug).toBe('github');
});

test('the index is fetched once; a failure leaves no icon and is retried later', async () => {
  const index: BrandIndex = { icons: { github: '181717' }, names: {} };
  const failing = jest.fn(() => Promise.reject(new Error('offline')));
  await expect(loadBrandIndex(failing as unknown as typeof fetch)).resolves.toBeUndefined();
  const working = jest.fn((url: string) => Promise.resolve(new Response(JSON.stringify(url && index))));
  await expect(loadBrandIndex(working as unknown as typeof fetch)).resolves.toEqual(index);
  await loadBrandIndex(working as unknown as typeof fetch);
  expect(working).toHaveBeenCalledTimes(1);
  expect(working).toHaveBeenCalledWith('/brand-icons/index.json');
});

test('a brand colour too close to the background is not used', () => {
  expect(readableOn('#181717', '#1f1f1f')).toBe(false);
  expect(readableOn('#181717', '#ffffff')).toBe(true);
  expect(readableOn('#ffffff', '#1f1f1f')).toBe(true);
  expect(readableOn('bad', '#ffffff')).toBe(false);
});

test('every slug of the index has its SVG in simple-icons', () => {
  const index = realIndex();
  const dir = path.dirname(iconsData);
  const slugs = Object.keys(index.icons);
  expect(slugs.length).toBeGreaterThan(3000);
  for (const slug of ['github', 'google', 'gitlab']) {
    expect(readFileSync(path.join(dir, '..', 'icons', `${slug}.svg`), 'utf8')).toContain('<path');
  }
});
