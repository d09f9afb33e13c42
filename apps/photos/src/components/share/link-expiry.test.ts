import { dateFieldValue, dateValidTill, presetValidTill } from './link-expiry.ts';

const now = new Date(2026, 0, 31, 10, 30).getTime();

test('presets count from now, in µs; never is 0', () => {
  expect(presetValidTill('never', now)).toBe(0);
  expect(presetValidTill('hour', now)).toBe((now + 3_600_000) * 1000);
  expect(presetValidTill('day', now)).toBe((now + 86_400_000) * 1000);
  expect(presetValidTill('week', now)).toBe((now + 7 * 86_400_000) * 1000);
  // A month after 31 January is the calendar's (Date rolls it into March), never a fixed 30 days.
  expect(new Date(presetValidTill('month', now) / 1000).getMonth()).toBe(2);
  expect(new Date(presetValidTill('year', now) / 1000)).toEqual(new Date(2027, 0, 31, 10, 30));
});

test('a picked day ends the link at the end of that local day', () => {
  expect(dateValidTill('2026-03-05')).toBe(new Date(2026, 2, 5, 23, 59, 59, 999).getTime() * 1000);
  expect(dateValidTill('2026-02-31')).toBeUndefined();
  expect(dateValidTill('')).toBeUndefined();
  expect(dateValidTill('5 March')).toBeUndefined();
});

test("the date field starts on the link's day, or tomorrow", () => {
  expect(dateFieldValue(new Date(2026, 6, 4, 12).getTime() * 1000, now)).toBe('2026-07-04');
  expect(dateFieldValue(0, now)).toBe('2026-02-01');
});
