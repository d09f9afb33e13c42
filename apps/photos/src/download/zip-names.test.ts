/** @jest-environment node */
// Titles made safe as file names (no path, no control, bidi or format character or lone surrogate, no `..`, Windows' rules,
// length-capped in UTF-8 keeping the extension) and unique within one ZIP without regard to case.
import { expect, test } from '@jest/globals';

import { MAX_NAME_BYTES, safeFileName, splitExtension, UniqueNames } from './zip-names.ts';

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/** Titles and the names they become, by rule. */
const cases: Record<string, [title: string, name: string][]> = {
  'an ordinary title is kept': [
    ['IMG_2024-06-15 18.30.00.jpg', 'IMG_2024-06-15 18.30.00.jpg'],
    ['Été à Paris — 東京.heic', 'Été à Paris — 東京.heic'],
    ['.hidden', '.hidden'],
    ['smile 😀.jpg', 'smile 😀.jpg'],
    ['console.jpg', 'console.jpg'],
  ],
  'separators are replaced and runs of dots collapse': [
    ['../../etc/passwd', '._._etc_passwd'],
    ['..\\..\\boot.ini', '._._boot.ini'],
    ['Trip/Day 1/a.jpg', 'Trip_Day 1_a.jpg'],
    ['a..jpg', 'a.jpg'],
  ],
  'control characters, characters Windows refuses and lone surrogates are replaced': [
    ['a\u0000b\nc\u007f\u009f.jpg', 'a_b_c__.jpg'],
    ['what? <a|b> "c": *d*.png', 'what_ _a_b_ _c__ _d_.png'],
    ['x\ud800y.jpg', 'x_y.jpg'],
    ['x\udc00.jpg', 'x_.jpg'],
  ],
  'bidi and invisible format characters are replaced, so a name shows as it is': [
    ['invoice\u202Egpj.exe', 'invoice_gpj.exe'],
    ['a\u200eb\u200fc\u202ad\u202be\u202cf\u202dg.jpg', 'a_b_c_d_e_f_g.jpg'],
    ['\u2066a\u2067b\u2068c\u2069.jpg', '_a_b_c_.jpg'],
    ['\ufeffa\u061cb\u180ec.jpg', '_a_b_c.jpg'],
  ],
  'Windows device names get a prefix, trailing dots and spaces go, nothing left is the fallback': [
    ['CON', '_CON'],
    ['nul.txt', '_nul.txt'],
    ['photo. . ', 'photo'],
    ['   ', 'file'],
    ['..', 'file'],
    ['.', 'file'],
  ],
};

test.each(Object.entries(cases))('%s', (_rule, pairs) => {
  expect(pairs.map(([title]) => safeFileName(title))).toEqual(pairs.map(([, name]) => name));
});

test('no title leaves a path in its name', () => {
  for (const title of ['../x', 'a/../../b', '....', '/..', '..\\..', '.. /..']) {
    expect(safeFileName(title)).not.toMatch(/[/\\]|\.\./);
  }
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
