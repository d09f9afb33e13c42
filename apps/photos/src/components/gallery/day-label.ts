// The heading of a day in the grid: "Today", "Yesterday", else the date in the user's locale (with the year
// only when it is not this year's).

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, withYear: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${withYear}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'long',
      ...(withYear ? { year: 'numeric' } : {}),
    });
    formatters.set(key, format);
  }
  return format;
}

/**
 * `today`, `yesterday`, or the formatted date of the local day starting at `start` (ms), seen at `now` (ms);
 * `unknown` for a start that is no date (formatting it would throw and take the whole grid down).
 */
export function dayLabel(
  start: number,
  now: number,
  locale: string,
): 'today' | 'yesterday' | 'unknown' | { text: string } {
  if (!Number.isFinite(start)) return 'unknown';
  const today = new Date(now);
  const todayStart = new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime();
  // Built from the calendar, not by subtracting 24 h: a day around a clock change is 23 or 25 hours long.
  const yesterdayStart = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1).getTime();
  if (start === todayStart) return 'today';
  if (start === yesterdayStart) return 'yesterday';
  const withYear = new Date(start).getFullYear() !== today.getFullYear();
  return { text: formatter(locale, withYear).format(start) };
}
