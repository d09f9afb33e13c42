import * as s from './shape.ts';

describe('storage shapes', () => {
  it('checks scalars', () => {
    expect(s.string.safeParse('x')).toEqual({ success: true, data: 'x' });
    expect(s.string.safeParse(1).success).toBe(false);
    expect(s.number.safeParse(Number.NaN).success).toBe(false);
    expect(s.integer.safeParse(1.5).success).toBe(false);
    expect(s.integer.safeParse(42).success).toBe(true);
    expect(s.boolean.safeParse('true').success).toBe(false);
  });

  it('accepts only the listed strings of oneOf', () => {
    const theme = s.oneOf('dark', 'light');
    expect(theme.safeParse('light').success).toBe(true);
    expect(theme.safeParse('blue').success).toBe(false);
  });

  it('checks objects property by property, keeping unknown properties', () => {
    const user = s.object({ id: s.optional(s.integer), email: s.string });
    expect(user.safeParse({ email: 'a@b.c', extra: 1 })).toEqual({ success: true, data: { email: 'a@b.c', extra: 1 } });
    expect(user.safeParse({ email: 'a@b.c', id: '7' }).success).toBe(false);
    expect(user.safeParse({ id: 7 }).success).toBe(false);
    expect(user.safeParse(null).success).toBe(false);
    expect(user.safeParse([]).success).toBe(false);
  });

  it('checks every element of an array and either side of a union', () => {
    const entries = s.arrayOf(s.object({ logLine: s.string }));
    expect(entries.safeParse([{ logLine: 'a' }, { logLine: 'b' }]).success).toBe(true);
    expect(entries.safeParse([{ logLine: 'a' }, { logLine: 2 }]).success).toBe(false);
    const sortBy = s.either(s.string, s.number);
    expect(sortBy.safeParse(3).success).toBe(true);
    expect(sortBy.safeParse(false).success).toBe(false);
  });
});
