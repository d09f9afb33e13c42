import { defaultDisplayOptions, savedDisplayOptions, saveDisplayOptions } from './display-options.ts';

beforeEach(() => localStorage.clear());

test('defaults when nothing is saved', () => {
  expect(savedDisplayOptions()).toEqual(defaultDisplayOptions);
});

test('round trip through local storage key authDisplay', () => {
  saveDisplayOptions({ compact: true, hideCodes: true, sort: 'manual' });
  expect(JSON.parse(localStorage.getItem('authDisplay') ?? 'null')).toEqual({
    compact: true,
    hideCodes: true,
    sort: 'manual',
  });
  expect(savedDisplayOptions()).toEqual({ compact: true, hideCodes: true, sort: 'manual' });
});

test('a partly saved or malformed value falls back per field or entirely', () => {
  localStorage.setItem('authDisplay', JSON.stringify({ hideCodes: true }));
  expect(savedDisplayOptions()).toEqual({ ...defaultDisplayOptions, hideCodes: true });
  localStorage.setItem('authDisplay', JSON.stringify({ sort: 'random' }));
  expect(savedDisplayOptions()).toEqual(defaultDisplayOptions);
  localStorage.setItem('authDisplay', '{not json');
  expect(savedDisplayOptions()).toEqual(defaultDisplayOptions);
});
