/** @jest-environment node */

import { codeURI, emptyDisplay } from '../code-uri.ts';
import { encodeMigration } from '../migration.ts';
import type { CodeData } from '../types.ts';
import { looksLikeOtpauthList, parseOtpauthList } from './otpauth-list.ts';
import { expectedFile, expectMatchesExpected, expectMatchesFixture, readFixture, readFixtureText } from './testing.ts';
import { ImportFormatError, ImportSizeError } from './types.ts';

// Every fixture of these formats, with the format the parser reports for it.
const fixtures: [folder: string, file: string][] = [
  ['aegis-importers', 'plain.txt'],
  ['aegis-importers', 'ente_auth.txt'],
  ['proton-pass-common', 'ente-plain_with_steam_and_hotp.txt'],
  ['proton-pass-common', 'ente-plain_with_hotp.txt'],
  ['proton-pass-common', 'ente-plain_with_missing_fields.txt'],
  ['proton-pass-common', 'aegis-aegis-txt.txt'],
  ['extract-otp-secrets', 'example_export.txt'],
  ['extract-otp-secrets', 'example_export_only_totp.txt'],
];

const totp: CodeData = {
  type: 'totp',
  issuer: 'Example',
  account: 'alice@example.com',
  secret: 'JBSWY3DPEHPK3PXP',
  algorithm: 'sha1',
  digits: 6,
  period: 30,
  counter: 0,
  display: emptyDisplay(),
  unknownParams: [],
};

describe('fixtures', () => {
  test.each(fixtures)('%s/%s reads as expected.json says', async (folder, file) => {
    const result = await parseOtpauthList(readFixture(folder, file));
    expectMatchesFixture(result, folder, file);
  });

  test.each(fixtures)('%s/%s reads the same from a string', async (folder, file) => {
    const result = await parseOtpauthList(readFixtureText(folder, file));
    expectMatchesFixture(result, folder, file);
  });

  test('reads Stratum’s Ente export, which has no codeDisplay, as a plain list', async () => {
    // Nothing in the text tells it from a plain list; the codes are the same either way.
    const expected = expectedFile('stratum', 'ente.unencrypted.txt');
    const result = await parseOtpauthList(readFixture('stratum', 'ente.unencrypted.txt'));
    expect(result.format).toBe('otpauth-list');
    expectMatchesExpected(result, expected.entries, expected.unsupported);
  });

  test('keeps what Ente’s codeDisplay says: trashed, note, tags, icon', async () => {
    const withHotp = await parseOtpauthList(readFixture('proton-pass-common', 'ente-plain_with_hotp.txt'));
    const trashed = withHotp.codes.find((code) => code.issuer === 'code1 ente');
    expect(trashed?.display).toMatchObject({ trashed: true, note: 'ente auth', iconSrc: 'customIcon' });
    expect(withHotp.codes.find((code) => code.account === 'amazon')?.display.iconID).toBe('issuer');

    const steam = await parseOtpauthList(readFixture('proton-pass-common', 'ente-plain_with_steam_and_hotp.txt'));
    expect(steam.codes[0]?.display.tags).toEqual(['tag1']);
  });

  test('detects every fixture of these formats and none of the other formats’ files', () => {
    for (const [folder, file] of [...fixtures, ['stratum', 'ente.unencrypted.txt'] as const]) {
      expect(looksLikeOtpauthList(readFixture(folder, file))).toBe(true);
    }
    const others: [string, string][] = [
      ['aegis-importers', 'aegis_plain.json'],
      ['aegis-importers', 'bitwarden.csv'],
      ['aegis-importers', 'bitwarden.json'],
      ['aegis-importers', 'andotp_encrypted.bin'],
      ['aegis-importers', '2fas_authenticator_plain_v4.2fas'],
      ['aegis-importers', 'proton_authenticator.json'],
    ];
    for (const [folder, file] of others) expect(looksLikeOtpauthList(readFixture(folder, file))).toBe(false);
  });
});

describe('lines', () => {
  test('tolerates CRLF, blank lines, surrounding spaces, a BOM and comments', async () => {
    const text = `\uFEFF# my codes\r\n\r\n   ${codeURI(totp)}   \r\n\t\r\n${codeURI({ ...totp, account: 'bob' })}\r\n`;
    const result = await parseOtpauthList(text);
    expect(result).toMatchObject({ format: 'ente-plain', skipped: [] });
    expect(result.codes.map((code) => code.account)).toEqual(['alice@example.com', 'bob']);
  });

  test('reads a plain list as otpauth-list, defaults applied', async () => {
    const result = await parseOtpauthList('otpauth://totp/Example:alice?secret=jbsw%20y3dp&issuer=Example\n');
    expect(result.format).toBe('otpauth-list');
    expect(result.codes).toEqual([
      { ...totp, account: 'alice', secret: 'JBSWY3DP', display: emptyDisplay(), unknownParams: [] },
    ]);
  });

  test('reads URIs joined by commas (Ente’s older import form)', async () => {
    const result = await parseOtpauthList(`${codeURI(totp)},${codeURI({ ...totp, account: 'bob' })}`);
    expect(result.codes).toHaveLength(2);
    expect(result.codes[0]?.display).toEqual(emptyDisplay());
  });

  test('keeps unknown codeDisplay keys and unknown parameters', async () => {
    const display = { ...emptyDisplay(), pinned: true, unknown: { colour: 'red' } };
    const result = await parseOtpauthList(codeURI({ ...totp, display, unknownParams: [['image', 'x.png']] }));
    expect(result.codes[0]?.display).toEqual(display);
    expect(result.codes[0]?.unknownParams).toEqual([['image', 'x.png']]);
  });

  test('skips each line that is not a usable code, with the reason and the names it has', async () => {
    const lines = [
      'otpauth://totp/A:a?secret=JBSWY3DP&algorithm=MD5&issuer=A',
      'otpauth://yaotp/Yandex:y?secret=JBSWY3DP',
      'motp://M:m?secret=JBSWY3DP',
      'otpauth://totp/B:b?secret=JBSWY3DP&digits=12',
      'otpauth://totp/C:c?secret=JBSWY3DP&period=0',
      'otpauth://hotp/D:d?secret=JBSWY3DP&counter=-1',
      'otpauth://totp/E:e?secret=not*base32',
      'otpauth://totp/F:f?issuer=F',
      'just some words',
      codeURI(totp),
    ];
    const result = await parseOtpauthList(lines.join('\n'));
    expect(result.codes).toHaveLength(1);
    expect(result.skipped).toEqual([
      { issuer: 'A', account: 'a', reason: 'unsupportedAlgorithm', detail: 'MD5' },
      { issuer: 'Yandex', account: 'y', reason: 'unsupportedType', detail: 'yaotp' },
      { issuer: 'M', account: 'm', reason: 'unsupportedType', detail: 'motp' },
      { issuer: 'B', account: 'b', reason: 'unsupportedDigits', detail: '12' },
      { issuer: 'C', account: 'c', reason: 'badPeriod', detail: '0' },
      { issuer: 'D', account: 'd', reason: 'badCounter', detail: '-1' },
      { issuer: 'E', account: 'e', reason: 'badSecret' },
      { issuer: 'F', account: 'f', reason: 'badSecret' },
      { issuer: '', account: '', reason: 'malformed' },
    ]);
  });

  test('never puts a secret in a skipped entry', async () => {
    const result = await parseOtpauthList('otpauth://totp/A:a?secret=SECRETSECRET&algorithm=MD5\nSECRETSECRET\n');
    expect(JSON.stringify(result.skipped)).not.toContain('SECRETSECRET');
  });

  test('removes control characters from names and tags', async () => {
    const display = encodeURIComponent(JSON.stringify({ tags: ['a\u0000b', ' ', 'a\u0007b'], note: 'x\u0000\ny' }));
    const result = await parseOtpauthList(
      `otpauth://totp/Ex%00am%0Aple:al%1Fice?secret=JBSWY3DP&codeDisplay=${display}`,
    );
    expect(result.codes[0]).toMatchObject({ issuer: 'Example', account: 'alice' });
    expect(result.codes[0]?.display).toMatchObject({ tags: ['ab'], note: 'x\ny' });
  });
});

describe('Google Authenticator export links', () => {
  test('reads every link of an export, with HOTP counters', async () => {
    const hotp: CodeData = { ...totp, type: 'hotp', account: 'h', counter: 7 };
    const { uris } = encodeMigration([totp, hotp, { ...totp, account: 'c', digits: 8 }], { perQR: 2, batchId: 5 });
    const result = await parseOtpauthList(uris.join('\n'));
    expect(result.format).toBe('google-migration');
    expect(result.skipped).toEqual([]);
    expect(result.codes.map((code) => [code.type, code.account, code.digits, code.counter])).toEqual([
      ['totp', 'alice@example.com', 6, 0],
      ['hotp', 'h', 6, 7],
      ['totp', 'c', 8, 0],
    ]);
  });

  test('skips a damaged link and the entries Google marks MD5', async () => {
    // One entry: secret 0x01..0x0a, name "m", algorithm 4 (MD5).
    const md5 = Buffer.from([0x0a, 0x11, 0x0a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x12, 0x01, 0x6d, 0x20, 0x04]);
    const text = `otpauth-migration://offline?data=${encodeURIComponent(md5.toString('base64'))}\notpauth-migration://offline?data=%%%`;
    const result = await parseOtpauthList(text);
    expect(result.codes).toEqual([]);
    expect(result.skipped).toEqual([
      { issuer: 'm', account: '', reason: 'unsupportedAlgorithm', detail: 'MD5' },
      { issuer: '', account: '', reason: 'malformed' },
    ]);
  });

  test('reads a list mixing both kinds as a plain list', async () => {
    const { uris } = encodeMigration([totp]);
    const result = await parseOtpauthList(`${uris.join('\n')}\notpauth://totp/X:x?secret=JBSWY3DP`);
    expect(result.format).toBe('otpauth-list');
    expect(result.codes).toHaveLength(2);
  });
});

describe('hostile content', () => {
  test.each([
    ['empty', ''],
    ['blank lines', '\n \r\n\t\n'],
    ['only comments', '# otpauth://totp/A?secret=JBSWY3DP\n'],
    ['prose', 'hello\nworld'],
    ['JSON', '{"otpauth://totp/A?secret=JBSWY3DP": 1}'],
    ['a CSV that holds URIs', 'name,totp\nA,otpauth://totp/A?secret=JBSWY3DP'],
  ])('%s is not a list', async (_, text) => {
    expect(looksLikeOtpauthList(text)).toBe(false);
    await expect(parseOtpauthList(text)).rejects.toBeInstanceOf(ImportFormatError);
  });

  test('garbage bytes are not a list', async () => {
    const bytes = new Uint8Array(4096).map((_, index) => (index * 7919) % 256);
    expect(looksLikeOtpauthList(bytes)).toBe(false);
    await expect(parseOtpauthList(bytes)).rejects.toBeInstanceOf(ImportFormatError);
  });

  test('a truncated last line is skipped, the rest read', async () => {
    const text = readFixtureText('aegis-importers', 'plain.txt');
    const cut = text.slice(0, text.lastIndexOf('secret=') + 'secret='.length);
    const result = await parseOtpauthList(cut);
    expect(result.codes).toHaveLength(6);
    expect(result.skipped).toEqual([{ issuer: 'Boeing', account: 'Sophia', reason: 'badSecret' }]);
  });

  test('survives NULs, bad percent escapes, bad codeDisplay JSON and odd characters', async () => {
    const lines = [
      'otpauth://totp/%E0%A4%A:%ZZ?secret=JBSWY3DP&issuer=%',
      'otpauth://totp/A:a?secret=JBSWY3DP&codeDisplay=%7B%22tags%22%3A5%2C%22note%22%3A%5B%5D%7D',
      'otpauth://totp/A:b?secret=JBSWY3DP&codeDisplay=%7Bnot json',
      'otpauth://totp/A:\u0000?secret=JBSWY3DP\u0000',
      'otpauth://\u0000/\ud800?secret=',
      'otpauth://',
      'otpauth-migration://offline',
      'otpauth-migration://offline?data=AAAA',
      'otpauth-migration://offline?data=' + 'A'.repeat(1000),
      'steam://',
    ];
    const result = await parseOtpauthList(lines.join('\n'));
    expect(result.codes.length + result.skipped.length).toBeGreaterThanOrEqual(lines.length - 1);
    for (const code of result.codes) expect(code.secret).toMatch(/^[A-Z2-7]+$/);
    expect(result.codes.find((code) => code.account === 'a')?.display.tags).toEqual([]);
  });

  test('random lines built from URI pieces never throw', async () => {
    const pieces = [
      'otpauth://',
      'otpauth-migration://offline?data=',
      'totp',
      'hotp',
      'steam',
      '/',
      ':',
      '?',
      '&',
      '=',
      '%',
      '%2',
      '%00',
      '#',
      ',',
      '+',
      'secret',
      'JBSWY3DP',
      'issuer',
      'digits',
      '99',
      'period',
      'counter',
      'algorithm',
      'sha256',
      'codeDisplay',
      '%7B%22tags%22%3A',
      '{',
      '"',
      '\u0000',
      '\ud800',
      'é',
      'CjUKEPql',
    ];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const lines = Array.from({ length: 3000 }, () =>
      Array.from({ length: 1 + (next() % 14) }, () => pieces[next() % pieces.length]).join(''),
    );
    const result = await parseOtpauthList(['otpauth://totp/A?secret=JBSWY3DP', ...lines].join('\n'));
    expect(result.codes.length + result.skipped.length).toBeGreaterThan(lines.length / 2);
  });

  test('a large list is read line by line', async () => {
    const line = codeURI(totp);
    const result = await parseOtpauthList(Array.from({ length: 5000 }, () => line).join('\n'));
    expect(result.codes).toHaveLength(5000);
  });

  test('content beyond the size limit is refused', async () => {
    const huge = new Uint8Array(33 * 1024 * 1024).fill(0x41);
    await expect(parseOtpauthList(huge)).rejects.toBeInstanceOf(ImportSizeError);
  });
});
