/** @jest-environment node */

import { looksLikeAndOTP, looksLikeAndOTPEncrypted, parseAndOTP } from './andotp.ts';
import { expectedFile, expectMatchesExpected, readFixture, readFixtureText } from './testing.ts';
import { ImportFormatError, ImportPasswordError, ImportSizeError } from './types.ts';

const plainFixtures: [string, string][] = [
  ['aegis-importers', 'andotp_plain.json'],
  ['stratum', 'andotp.unencrypted.json'],
];
const encryptedFile = 'andotp_encrypted.bin';

async function passwordError(promise: Promise<unknown>, kind: 'needed' | 'wrong') {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportPasswordError);
  expect((error as ImportPasswordError).kind).toBe(kind);
}

/** An encrypted backup made here with a low iteration count (the header carries it). */
async function encryptedBackup(json: string, password: string, iterations = 1000): Promise<Uint8Array> {
  const salt = crypto.getRandomValues(new Uint8Array(12));
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveKey']);
  const key = await crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-1', salt, iterations },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt'],
  );
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce }, key, new TextEncoder().encode(json));
  const out = new Uint8Array(28 + sealed.byteLength);
  new DataView(out.buffer).setUint32(0, iterations);
  out.set(salt, 4);
  out.set(nonce, 16);
  out.set(new Uint8Array(sealed), 28);
  return out;
}

const entry = (fields: Record<string, unknown> = {}) => ({
  secret: 'JBSWY3DPEHPK3PXP',
  issuer: 'Example',
  label: 'alice',
  digits: 6,
  type: 'TOTP',
  algorithm: 'SHA1',
  period: 30,
  tags: [],
  ...fields,
});

describe('plain andOTP backups', () => {
  test.each(plainFixtures)('%s/%s reads as expected.json says', async (folder, file) => {
    const expected = expectedFile(folder, file);
    const result = await parseAndOTP(readFixtureText(folder, file));
    expect(result.format).toBe('andotp');
    expectMatchesExpected(result, expected.entries, expected.unsupported);
    // Given as bytes too.
    expectMatchesExpected(
      await parseAndOTP(new Uint8Array(readFixture(folder, file))),
      expected.entries,
      expected.unsupported,
    );
  });

  test('keeps tags, trimmed and without repeats', async () => {
    const { codes } = await parseAndOTP(JSON.stringify([entry({ tags: [' Work ', 'Work', '', 3, 'Home'] })]));
    expect(codes[0]?.display.tags).toEqual(['Work', 'Home']);
  });
});

describe('encrypted andOTP backups', () => {
  test('opens the fixture with its password', async () => {
    const expected = expectedFile('aegis-importers', encryptedFile);
    const result = await parseAndOTP(new Uint8Array(readFixture('aegis-importers', encryptedFile)), {
      password: expected.password,
    });
    expect(result.format).toBe('andotp-encrypted');
    expectMatchesExpected(result, expected.entries, expected.unsupported);
  });

  test('says the password is wrong, or that it is needed', async () => {
    const bytes = new Uint8Array(readFixture('aegis-importers', encryptedFile));
    await passwordError(parseAndOTP(bytes, { password: 'wrong' }), 'wrong');
    await passwordError(parseAndOTP(bytes), 'needed');
    await passwordError(parseAndOTP(bytes, { password: '' }), 'needed');
  });

  test('reads the iteration count from the header', async () => {
    const bytes = await encryptedBackup(JSON.stringify([entry()]), 'pw', 2000);
    const { codes } = await parseAndOTP(bytes, { password: 'pw' });
    expect(codes.map((code) => code.account)).toEqual(['alice']);
  });

  test('reports a backup that decrypts to something other than a list as damaged', async () => {
    await expect(parseAndOTP(await encryptedBackup('{"a":1}', 'pw'), { password: 'pw' })).rejects.toBeInstanceOf(
      ImportFormatError,
    );
    await expect(parseAndOTP(await encryptedBackup('[{', 'pw'), { password: 'pw' })).rejects.toBeInstanceOf(
      ImportFormatError,
    );
  });

  test('refuses a header it cannot use before asking for the password', async () => {
    const bytes = new Uint8Array(readFixture('aegis-importers', encryptedFile));
    const tooShort = bytes.slice(0, 40);
    const noIterations = bytes.slice();
    noIterations.set([0, 0, 0, 0], 0);
    const tooManyIterations = bytes.slice();
    tooManyIterations.set([0x7f, 0xff, 0xff, 0xff], 0);
    for (const damaged of [tooShort, noIterations, tooManyIterations, new Uint8Array(0)]) {
      await expect(parseAndOTP(damaged, { password: 'test' })).rejects.toBeInstanceOf(ImportFormatError);
    }
  });

  test('takes a truncated backup for a wrong password (GCM cannot tell them apart)', async () => {
    const bytes = new Uint8Array(readFixture('aegis-importers', encryptedFile));
    await passwordError(parseAndOTP(bytes.slice(0, bytes.length - 1), { password: 'test' }), 'wrong');
  });
});

describe('hostile andOTP input', () => {
  test.each([
    ['truncated', readFixtureText('aegis-importers', 'andotp_plain.json').slice(0, 300)],
    ['empty', ''],
    ['an object', '{"secret":"JBSWY3DPEHPK3PXP"}'],
    ['a number', '42'],
    ['NUL bytes', '[\u0000]'],
  ])('%s → ImportFormatError', async (_, text) => {
    await expect(parseAndOTP(text)).rejects.toBeInstanceOf(ImportFormatError);
  });

  test('refuses huge input', async () => {
    await expect(parseAndOTP(`[${' '.repeat(33 * 1024 * 1024)}]`)).rejects.toBeInstanceOf(ImportSizeError);
  });

  test('skips entries of the wrong shape without failing the backup', async () => {
    const entries = [
      null,
      [],
      entry({ label: 'motp', type: 'MOTP' }),
      entry({ label: 'sha384', algorithm: 'SHA384' }),
      entry({ label: 'digits', digits: 12 }),
      entry({ label: 'digits-text', digits: '6' }),
      entry({ label: 'secret', secret: ['JBSWY3DPEHPK3PXP'] }),
      entry({ label: 'no-secret', secret: undefined }),
      entry({ label: 'hotp', type: 'HOTP', counter: 1.5 }),
      entry({ label: 'ok\u0000', tags: 'not a list' }),
    ];
    const { codes, skipped } = await parseAndOTP(JSON.stringify(entries));
    expect(codes.map((code) => code.account)).toEqual(['ok']);
    expect(skipped.map((s) => `${s.account}:${s.reason}:${s.detail ?? ''}`)).toEqual([
      ':malformed:',
      ':malformed:',
      'motp:unsupportedType:motp',
      'sha384:unsupportedAlgorithm:SHA384',
      'digits:unsupportedDigits:12',
      'digits-text:malformed:',
      'secret:malformed:',
      'no-secret:badSecret:',
      'hotp:badCounter:1.5',
    ]);
    expect(JSON.stringify(skipped)).not.toContain('JBSWY3DP');
  });
});

describe('andOTP detection', () => {
  test('recognises plain backups, text or bytes, and the encrypted fixture', () => {
    for (const [folder, file] of plainFixtures) {
      expect(looksLikeAndOTP(readFixtureText(folder, file))).toBe(true);
      expect(looksLikeAndOTP(new Uint8Array(readFixture(folder, file)))).toBe(true);
    }
    expect(looksLikeAndOTPEncrypted(new Uint8Array(readFixture('aegis-importers', encryptedFile)))).toBe(true);
  });

  test('does not claim other files', () => {
    for (const file of ['aegis_plain.json', 'freeotp_plus.json', 'andotp_plain.json']) {
      expect(looksLikeAndOTPEncrypted(new Uint8Array(readFixture('aegis-importers', file)))).toBe(false);
    }
    expect(looksLikeAndOTP(readFixtureText('aegis-importers', 'aegis_plain.json'))).toBe(false);
    expect(looksLikeAndOTP(readFixtureText('aegis-importers', 'freeotp_plus.json'))).toBe(false);
    expect(looksLikeAndOTP(new Uint8Array(readFixture('aegis-importers', encryptedFile)))).toBe(false);
    expect(looksLikeAndOTPEncrypted('text')).toBe(false);
    expect(looksLikeAndOTPEncrypted(new Uint8Array(10))).toBe(false);
  });
});
