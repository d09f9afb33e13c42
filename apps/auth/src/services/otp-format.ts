// How a code is shown around its value: grouped for reading, and the share of its period left. Kept apart
// from otp.ts so that a page that only shows codes (/share) does not load the OTP library.

/** The share of the period still to run at `timeMs`, in (0, 1]: (P − (t mod P)) / P. */
export function remainingFraction(periodSeconds: number, timeMs: number): number {
  const period = periodSeconds * 1000;
  const elapsed = ((timeMs % period) + period) % period;
  return (period - elapsed) / period;
}

/**
 * A code in groups of three for reading (`123 456`, `123 456 78`, `ABC DE`). A last group of one joins
 * the group before it (`1234`, `123 4567`), which reads better than a lone character.
 */
export function formatOTP(code: string): string {
  const groups = code.match(/.{1,3}/gu) ?? [];
  const last = groups.at(-1);
  if (groups.length > 1 && last?.length === 1) {
    groups.splice(-2, 2, `${groups.at(-2) ?? ''}${last}`);
  }
  return groups.join(' ');
}
