/** @jest-environment node */

import { looksLikeFreeOTPPlus, parseFreeOTPPlus } from './freeotp-plus.ts';
import { expectedFile, expectMatchesExpected, readFixture, readFixtureText } from './testing.ts';
import { ImportFormatError } from './types.ts';

const folder = 'aegis-importers';
const file = 'freeotp_plus.json';

const token = (fields: Record<string, unknown> = {}) => ({
  algo: 'SHA1',
  counter: 0,
  digits: 6,
  issuerExt: 'Example',
  label: 'alice',
  period: 30,
  // "Hello!" and 0xDE 0xAD 0xBE 0xEF as Java's signed bytes.
  secret: [72, 101, 108, 108, 111, 33, -34, -83, -66, -17],
  type: 'TOTP',
  ...fields,
});

const file1 = (tokens: unknown[]) => JSON.stringify({ tokenOrder: [], tokens });

describe('FreeOTP+ exports', () => {
  test('reads the fixture as expected.json says (counters as stored)', async () => {
    const expected = expectedFile(folder, file);
    const result = await parseFreeOTPPlus(readFixtureText(folder, file));
    expect(result.format).toBe('freeotp-plus');
    expectMatchesExpected(result, expected.entries, expected.unsupported);
    expectMatchesExpected(
      await parseFreeOTPPlus(new Uint8Array(readFixture(folder, file))),
      expected.entries,
      expected.unsupported,
    );
  });

  test('turns signed bytes into Base32', async () => {
    const { codes } = await parseFreeOTPPlus(file1([token()]));
    expect(codes[0]?.secret).toBe('JBSWY3DPEHPK3PXP');
  });

  test('prefers the names given in the app to the ones from the URI', async () => {
    const { codes } = await parseFreeOTPPlus(
      file1([
        token({ issuerInt: 'Int', issuerAlt: 'Renamed', labelAlt: 'bob' }),
        token({ issuerExt: '', issuerInt: 'Int' }),
      ]),
    );
    expect(codes.map((code) => [code.issuer, code.account])).toEqual([
      ['Renamed', 'bob'],
      ['Int', 'alice'],
    ]);
  });

  test.each([
    ['truncated', readFixtureText(folder, file).slice(0, 200)],
    ['empty', ''],
    ['an array', '[]'],
    ['tokens not a list', '{"tokens":{}}'],
    ['garbage', '\u0000\u0001\u0002'],
  ])('%s → ImportFormatError', async (_, text) => {
    await expect(parseFreeOTPPlus(text)).rejects.toBeInstanceOf(ImportFormatError);
  });

  test('skips tokens of the wrong shape', async () => {
    const tokens = [
      'x',
      token({ label: 'empty', secret: [] }),
      token({ label: 'text', secret: 'JBSWY3DPEHPK3PXP' }),
      token({ label: 'range', secret: [1, 2, 300] }),
      token({ label: 'fraction', secret: [1.5, 2] }),
      token({ label: 'md5', algo: 'MD5' }),
      token({ label: 'type', type: 'YANDEX' }),
      token({ label: 'period', period: -30 }),
      token({ label: 'ok', type: 'HOTP', counter: 7 }),
    ];
    const { codes, skipped } = await parseFreeOTPPlus(file1(tokens));
    expect(codes).toEqual([expect.objectContaining({ account: 'ok', type: 'hotp', counter: 7 })]);
    expect(skipped.map((s) => `${s.account}:${s.reason}:${s.detail ?? ''}`)).toEqual([
      ':malformed:',
      'empty:badSecret:',
      'text:badSecret:',
      'range:badSecret:',
      'fraction:badSecret:',
      'md5:unsupportedAlgorithm:MD5',
      'type:unsupportedType:yandex',
      'period:badPeriod:-30',
    ]);
  });

  test('is recognised, and does not claim other files', () => {
    expect(looksLikeFreeOTPPlus(readFixtureText(folder, file))).toBe(true);
    expect(looksLikeFreeOTPPlus(new Uint8Array(readFixture(folder, file)))).toBe(true);
    for (const other of ['aegis_plain.json', 'andotp_plain.json', 'andotp_encrypted.bin']) {
      expect(looksLikeFreeOTPPlus(new Uint8Array(readFixture(folder, other)))).toBe(false);
    }
  });
});
