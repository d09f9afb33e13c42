/** @jest-environment node */
// Titles made safe as file names (no path, no control character or lone surrogate, no `..`, Windows' rules,
// length-capped in UTF-8 keeping the extension) and unique within one ZIP without regard to case.
import { expect, test } from '@jest/globals';

import { MAX_NAME_BYTES, safeFileName, splitExtension, UniqueNames } from './zip-names.ts';

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

test('an ordinary title is kept as it is', () => {
  expect(safeFileName('IMG_2024-06-15 18.30.00.jpg')).toBe('IMG_2024-06-15 18.30.00.jpg');
  expect(safeFileName('Été à Paris — 東京.heic')).toBe('Été à Paris — 東京.heic');
  expect(safeFileName('.hidden')).toBe('.hidden');
});

test('no path survives: separators are replaced and runs of dots collapse', () => {
  expect(safeFileName('../../etc/passwd')).toBe('._._etc_passwd');
  expect(safeFileName('..\\..\\boot.ini')).toBe('._._boot.ini');
  expect(safeFileName('Trip/Day 1/a.jpg')).toBe('Trip_Day 1_a.jpg');
  expect(safeFileName('..')).toBe('file');
  expect(safeFileName('.')).toBe('file');
  expect(safeFileName('a..jpg')).toBe('a.jpg');
  for (const title of ['../x', 'a/../../b', '....', '/..', '..\\..']) {
    const name = safeFileName(title);
    expect(name).not.toMatch(/[/\\]|\.\./);
  }
});

test('control characters, characters Windows refuses and lone surrogates are replaced', () => {
  expect(safeFileName('a\u0000b\nc\u007f\u009f.jpg')).toBe('a_b_c__.jpg');
  expect(safeFileName('what? <a|b> "c": *d*.png')).toBe('what_ _a_b_ _c__ _d_.png');
  expect(safeFileName('x\ud800y.jpg')).toBe('x_y.jpg');
  expect(safeFileName('x\udc00.jpg')).toBe('x_.jpg');
  // A proper pair is a character, kept.
  expect(safeFileName('smile 😀.jpg')).toBe('smile 😀.jpg');
});

test('Windows device names get a prefix; trailing dots and spaces go; nothing left is the fallback', () => {
  expect(safeFileName('CON')).toBe('_CON');
  expect(safeFileName('nul.txt')).toBe('_nul.txt');
  expect(safeFileName('console.jpg')).toBe('console.jpg');
  expect(safeFileName('photo. . ')).toBe('photo');
  expect(safeFileName('   ')).toBe('file');
  expect(safeFileName('', 'photos')).toBe('photos');
});

test('a long title is cut to MAX_NAME_BYTES of UTF-8, keeping the extension and whole characters', () => {
  const ascii = safeFileName(`${'a'.repeat(300)}.jpeg`);
  expect(utf8Length(ascii)).toBe(MAX_NAME_BYTES);
  expect(ascii.endsWith('a.jpeg')).toBe(true);
  const wide = safeFileName(`${'😀'.repeat(100)}.mov`);
  expect(utf8Length(wide)).toBeLessThanOrEqual(MAX_NAME_BYTES);
  expect(wide).toBe(`${'😀'.repeat(49)}.mov`);
  expect(new TextDecoder().decode(new TextEncoder().encode(wide))).toBe(wide);
});

test('splitExtension splits at the last dot, a leading dot being part of the name', () => {
  expect(splitExtension('a.b.jpg')).toEqual(['a.b', '.jpg']);
  expect(splitExtension('.hidden')).toEqual(['.hidden', '']);
  expect(splitExtension('noext')).toEqual(['noext', '']);
});

test('names are unique within one ZIP, counting up before the extension, without regard to case', () => {
  const names = new UniqueNames();
  expect(['a.jpg', 'a.jpg', 'A.JPG', 'a (2).jpg', 'b', 'b'].map((name) => names.take(name))).toEqual([
    'a.jpg',
    'a (2).jpg',
    'A (3).JPG',
    'a (2) (2).jpg',
    'b',
    'b (2)',
  ]);
});
