// A public link's expiry as the dialog offers it: never, a few presets counted from now, or the end of a day
// the person picks. The server takes `validTill` in µs since the epoch, 0 for never, and refuses one in the past.

export const expiryPresets = ['never', 'hour', 'day', 'week', 'month', 'year'] as const;
export type ExpiryPreset = (typeof expiryPresets)[number];
/** What the expiry field can say: a preset, or "on a date" (the date field). */
export type ExpiryChoice = ExpiryPreset | 'date';

const hourMs = 60 * 60 * 1000;

/** `validTill` (µs) of a preset chosen at `nowMs`. */
export function presetValidTill(preset: ExpiryPreset, nowMs: number): number {
  const at = new Date(nowMs);
  switch (preset) {
    case 'never':
      return 0;
    case 'hour':
      return (nowMs + hourMs) * 1000;
    case 'day':
      return (nowMs + 24 * hourMs) * 1000;
    case 'week':
      return (nowMs + 7 * 24 * hourMs) * 1000;
    case 'month':
      at.setMonth(at.getMonth() + 1);
      return at.getTime() * 1000;
    case 'year':
      at.setFullYear(at.getFullYear() + 1);
      return at.getTime() * 1000;
  }
}

/** The value of a date field (`yyyy-mm-dd`) → the end of that local day in µs; undefined when not a date. */
export function dateValidTill(value: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const end = new Date(year, month - 1, day, 23, 59, 59, 999);
  // new Date rolls an impossible day (31 February) over to the next month: not a date the person picked.
  if (end.getFullYear() !== year || end.getMonth() !== month - 1 || end.getDate() !== day) return undefined;
  return end.getTime() * 1000;
}

/** A local day as the date field's value (`yyyy-mm-dd`): of `validTill` (µs), else of tomorrow from `nowMs`. */
export function dateFieldValue(validTill: number, nowMs: number): string {
  const at = new Date(validTill > 0 ? validTill / 1000 : nowMs + 24 * hourMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(at.getFullYear())}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
