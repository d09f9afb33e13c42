import {
  codesAt,
  forgetSecrets,
  formatOTP,
  nextChangeAt,
  otpAt,
  remainingFraction,
  steamAlphabet,
  type OTPParams,
} from './otp.ts';
import type { OTPAlgorithm } from './types.ts';

// The RFC seeds: ASCII "1234567890" repeated to 20, 32 and 64 bytes (RFC 6238 Appendix A).
const seeds: Record<OTPAlgorithm, string> = {
  sha1: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
  sha256: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA',
  sha512: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNA',
};

function totp(algorithm: OTPAlgorithm, digits = 8, period = 30): OTPParams {
  return { type: 'totp', secret: seeds[algorithm], algorithm, digits, period, counter: 0 };
}

describe('HOTP, RFC 4226 Appendix D', () => {
  const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
  test.each(expected.map((code, counter) => [counter, code] as const))('counter %i → %s', (counter, code) => {
    const params: OTPParams = { type: 'hotp', secret: seeds.sha1, algorithm: 'sha1', digits: 6, period: 30, counter };
    // HOTP ignores the time.
    expect(otpAt(params, 0)).toBe(code);
    expect(otpAt(params, 1_700_000_000_000)).toBe(code);
  });

  test('current is the counter, next is counter + 1', () => {
    const params: OTPParams = {
      type: 'hotp',
      secret: seeds.sha1,
      algorithm: 'sha1',
      digits: 6,
      period: 30,
      counter: 3,
    };
    expect(codesAt(params, 123)).toEqual({ current: '969429', next: '338314' });
  });

  test('honours digits (the web app always showed 6)', () => {
    const params: OTPParams = {
      type: 'hotp',
      secret: seeds.sha1,
      algorithm: 'sha1',
      digits: 8,
      period: 30,
      counter: 0,
    };
    // HOTP-Value of counter 0 is 1284755224 (RFC 4226 Appendix D): its last 8 digits.
    expect(otpAt(params, 0)).toBe('84755224');
  });
});

describe('TOTP, RFC 6238 Appendix B, each algorithm with its own seed', () => {
  const table: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  test.each(table)('t = %i s', (seconds, sha1, sha256, sha512) => {
    expect(otpAt(totp('sha1'), seconds * 1000)).toBe(sha1);
    expect(otpAt(totp('sha256'), seconds * 1000)).toBe(sha256);
    expect(otpAt(totp('sha512'), seconds * 1000)).toBe(sha512);
    // Six digits are the last six.
    expect(otpAt(totp('sha256', 6), seconds * 1000)).toBe(sha256.slice(2));
  });

  test('the step changes exactly at the period boundary', () => {
    expect(otpAt(totp('sha1'), 59_999)).toBe('94287082');
    expect(otpAt(totp('sha1'), 60_000)).not.toBe('94287082');
    // 59 s lies in step 1 of 30 s; the code of step 1 is also the "next" code at t = 0..29 s.
    expect(codesAt(totp('sha1'), 10_000).next).toBe('94287082');
  });

  test('next is the code one period later', () => {
    const params = totp('sha512', 6, 45);
    const t = 1_234_567_890_123;
    expect(codesAt(params, t)).toEqual({ current: otpAt(params, t), next: otpAt(params, t + 45_000) });
  });
});

describe('digits and periods', () => {
  test.each([4, 5, 6, 7, 8, 9, 10])('%i digits are the last digits of the 10-digit value', (digits) => {
    const t = 1_111_111_109_000;
    const ten = otpAt(totp('sha1', 10), t);
    expect(ten).toMatch(/^\d{10}$/);
    expect(otpAt(totp('sha1', digits), t)).toBe(ten.slice(10 - digits));
  });

  test('the 10-digit value is the whole 31-bit truncation (RFC 6238: 07081804 at 1111111109 s)', () => {
    const ten = Number(otpAt(totp('sha1', 10), 1_111_111_109_000));
    expect(ten).toBeLessThan(2 ** 31);
    expect(ten % 1e8).toBe(7081804);
  });

  test.each([1, 7, 13, 45, 60, 90, 86_400])('a period of %i s steps at multiples of it', (period) => {
    const params = totp('sha1', 6, period);
    const start = 1_700_000_000_000 - (1_700_000_000_000 % (period * 1000));
    // Same code throughout one step, and the RFC value for the step number.
    expect(otpAt(params, start)).toBe(otpAt(params, start + period * 1000 - 1));
    const hotp: OTPParams = { ...params, type: 'hotp', counter: start / (period * 1000) };
    expect(otpAt(params, start)).toBe(otpAt(hotp, 0));
    expect(nextChangeAt(params, start + 1)).toBe(start + period * 1000);
  });
});

describe('Steam', () => {
  const steam = (secret: string): OTPParams => ({
    type: 'steam',
    secret,
    algorithm: 'sha1',
    digits: 5,
    period: 30,
    counter: 0,
  });

  test.each([
    // docs/protocol.md test vectors (Ente web's algorithm).
    ['JBSWY3DPEHPK3PXP', 0, 'VH8YJ'],
    ['JBSWY3DPEHPK3PXP', 59_000, '2YXGV'],
    ['JBSWY3DPEHPK3PXP', 1_700_000_000_000, '2KM2P'],
    // KeePassXC's tests, captured from the Steam mobile app.
    ['63BEDWCQZKTQWPESARIERL5DTTQFCJTK', 1_511_200_518_000, 'FR8RV'],
    ['63BEDWCQZKTQWPESARIERL5DTTQFCJTK', 1_511_200_714_000, '9P3VP'],
    // proton-pass-common's test.
    ['STEAMKEY', 1_742_298_317_000, 'VKFDN'],
  ])('%s at %i ms → %s', (secret, time, code) => {
    expect(otpAt(steam(secret), time)).toBe(code);
  });

  test('always 30 s steps and five symbols of the alphabet, whatever the data says', () => {
    const odd: OTPParams = { ...steam('JBSWY3DPEHPK3PXP'), period: 60, digits: 8 };
    expect(otpAt(odd, 59_000)).toBe('2YXGV');
    expect(codesAt(odd, 29_000)).toEqual({ current: 'VH8YJ', next: otpAt(odd, 59_000) });
    expect(otpAt(odd, 123_456_789)).toMatch(new RegExp(`^[${steamAlphabet}]{5}$`));
    expect(nextChangeAt(odd, 31_000)).toBe(60_000);
  });
});

test('forgetSecrets empties the cache without changing results', () => {
  const before = otpAt(totp('sha1'), 59_000);
  forgetSecrets();
  expect(otpAt(totp('sha1'), 59_000)).toBe(before);
});

test('HOTP has no next change', () => {
  expect(nextChangeAt({ ...totp('sha1'), type: 'hotp' }, 0)).toBe(Infinity);
});

test.each([
  [30, 0, 1],
  [30, 15_000, 0.5],
  [30, 29_999, 1 / 30_000],
  [30, 30_000, 1],
  [45, 1_700_000_000_000, (45_000 - (1_700_000_000_000 % 45_000)) / 45_000],
  [30, -1_000, 1 / 30],
])('remainingFraction(%i, %i) = %f', (period, time, fraction) => {
  expect(remainingFraction(period, time)).toBeCloseTo(fraction, 10);
});

test.each([
  ['1234', '1234'],
  ['12345', '123 45'],
  ['123456', '123 456'],
  ['1234567', '123 4567'],
  ['12345678', '123 456 78'],
  ['123456789', '123 456 789'],
  ['1234567890', '123 456 7890'],
  ['ABCDE', 'ABC DE'],
  ['', ''],
])('formatOTP(%s) = %s', (code, formatted) => {
  expect(formatOTP(code)).toBe(formatted);
});
