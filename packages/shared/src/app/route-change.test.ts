import { isPathChange, pathOf } from './route-change.ts';

describe('isPathChange', () => {
  test('is true when the path differs', () => {
    expect(isPathChange('/login', '/verify')).toBe(true);
    expect(isPathChange('/two-factor/setup', '/two-factor/verify')).toBe(true);
    expect(isPathChange('/login?next=a', '/verify?next=a')).toBe(true);
  });

  test('ignores the query string and the hash', () => {
    expect(isPathChange('/gallery', '/gallery?collection=3')).toBe(false);
    expect(isPathChange('/gallery?collection=3', '/gallery?collection=4')).toBe(false);
    expect(isPathChange('/gallery?collection=3', '/gallery')).toBe(false);
    expect(isPathChange('/auth', '/auth#codes')).toBe(false);
  });

  test('reads the path of absolute URLs too', () => {
    expect(pathOf('http://localhost:3003/auth?x=1')).toBe('/auth');
    expect(isPathChange('/auth', 'http://localhost:3003/auth?x=1')).toBe(false);
  });
});
