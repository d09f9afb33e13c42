/** @jest-environment node */

import {
  looksLikeBitwardenCSV,
  looksLikeBitwardenJSON,
  parseBitwardenCSV,
  parseBitwardenJSON,
  parseCSV,
} from './bitwarden.ts';
import { expectMatchesFixture, readFixture, readFixtureText } from './testing.ts';
import { ImportFormatError } from './types.ts';

const item = (fields: Record<string, unknown> = {}, login: Record<string, unknown> = {}) => ({
  id: crypto.randomUUID(),
  organizationId: null,
  folderId: null,
  type: 1,
  name: 'Example',
  notes: null,
  favorite: false,
  login: { uris: [], username: 'alice', password: 'hunter2', totp: 'JBSWY3DPEHPK3PXP', ...login },
  collectionIds: null,
  ...fields,
});

const exportOf = (items: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ encrypted: false, folders: [], items, ...extra });

const csvHeader = 'folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp';

describe('Bitwarden JSON', () => {
  test.each([
    ['aegis-importers', 'bitwarden.json'],
    ['proton-pass-common', 'bitwarden-bitwarden_app.json'],
  ])('%s/%s reads as expected.json says', async (folder, file) => {
    expectMatchesFixture(await parseBitwardenJSON(readFixtureText(folder, file)), folder, file);
    expectMatchesFixture(await parseBitwardenJSON(new Uint8Array(readFixture(folder, file))), folder, file);
    expect(looksLikeBitwardenJSON(readFixture(folder, file))).toBe(true);
    expect(looksLikeBitwardenCSV(readFixture(folder, file))).toBe(false);
  });

  test('is not detected in other exports', () => {
    expect(looksLikeBitwardenJSON(readFixtureText('aegis-importers', 'aegis_plain.json'))).toBe(false);
    expect(looksLikeBitwardenJSON(readFixtureText('aegis-importers', '2fas_authenticator_plain_v4.2fas'))).toBe(false);
    expect(looksLikeBitwardenJSON(readFixtureText('aegis-importers', 'bitwarden.csv'))).toBe(false);
  });

  test('maps folders and collections to tags, favorite to pinned, notes to the note', async () => {
    const text = exportOf(
      [
        item({ folderId: 'f1', favorite: true, notes: 'recovery at\r\nthe bank' }),
        item({ collectionIds: ['c1', 'missing', 3] }),
        item({ folderId: 'gone' }),
      ],
      { folders: [{ id: 'f1', name: 'Work' }], collections: [{ id: 'c1', name: 'Shared' }, null] },
    );
    const { codes } = await parseBitwardenJSON(text);
    expect(codes.map((code) => code.display)).toMatchObject([
      { tags: ['Work'], pinned: true, note: 'recovery at\nthe bank' },
      { tags: ['Shared'], pinned: false, note: '' },
      { tags: [], pinned: false, note: '' },
    ]);
  });

  test('reads a bare secret, an otpauth URI and a steam:// secret', async () => {
    const { codes } = await parseBitwardenJSON(
      exportOf([
        item({ name: 'Bare' }, { totp: ' jbsw y3dp ehpk 3pxp ' }),
        item({ name: 'Ignored' }, { totp: 'otpauth://hotp/Site:bob?secret=JBSWY3DPEHPK3PXP&counter=4&digits=8' }),
        item({ name: 'Nameless' }, { totp: 'otpauth://totp/?secret=JBSWY3DPEHPK3PXP' }),
        item({ name: 'Game' }, { totp: 'steam://JBSWY3DPEHPK3PXP', username: null }),
      ]),
    );
    expect(
      codes.map(({ type, issuer, account, secret, digits, counter }) => [
        type,
        issuer,
        account,
        secret,
        digits,
        counter,
      ]),
    ).toEqual([
      ['totp', 'Bare', 'alice', 'JBSWY3DPEHPK3PXP', 6, 0],
      ['hotp', 'Site', 'bob', 'JBSWY3DPEHPK3PXP', 8, 4],
      ['totp', 'Nameless', 'alice', 'JBSWY3DPEHPK3PXP', 6, 0],
      ['steam', 'Game', '', 'JBSWY3DPEHPK3PXP', 5, 0],
    ]);
  });

  test('ignores items without a TOTP; skips the unreadable ones with a reason', async () => {
    const { codes, skipped } = await parseBitwardenJSON(
      exportOf([
        item({}, { totp: null }),
        item({}, { totp: '' }),
        item({ type: 2, login: undefined, secureNote: { type: 0 } }),
        item({ name: 'mOTP' }, { totp: 'motp://x?secret=ABCD' }),
        item({ name: 'MD5' }, { totp: 'otpauth://totp/a?secret=JBSWY3DPEHPK3PXP&algorithm=MD5' }),
        item({ name: 'Digits' }, { totp: 'otpauth://totp/a:b?secret=JBSWY3DPEHPK3PXP&digits=3' }),
        item({ name: 'Bad' }, { totp: 'not a secret!' }),
        item({ name: 'Number' }, { totp: 123456 }),
        item({ name: 'Link' }, { totp: 'https://example.com' }),
        item({ name: 'Migration' }, { totp: 'otpauth-migration://offline?data=AAAA' }),
        null,
      ]),
    );
    expect(codes).toEqual([]);
    expect(skipped).toEqual([
      { issuer: 'mOTP', account: 'alice', reason: 'unsupportedType', detail: 'motp' },
      { issuer: 'MD5', account: 'alice', reason: 'unsupportedAlgorithm', detail: 'MD5' },
      { issuer: 'Digits', account: 'alice', reason: 'unsupportedDigits', detail: '3' },
      { issuer: 'Bad', account: 'alice', reason: 'badSecret' },
      { issuer: 'Number', account: '', reason: 'malformed' },
      { issuer: 'Link', account: 'alice', reason: 'malformed' },
      { issuer: 'Migration', account: 'alice', reason: 'malformed' },
      { issuer: '', account: '', reason: 'malformed' },
    ]);
    expect(JSON.stringify(skipped)).not.toContain('JBSWY3DPEHPK3PXP');
  });

  test.each([
    ['truncated', readFixtureText('aegis-importers', 'bitwarden.json').slice(0, 300)],
    ['empty', ''],
    ['garbage bytes', new Uint8Array([0xff, 0xfe, 0x00, 0x7b])],
    ['an array', '[]'],
    ['no items', '{"encrypted": false}'],
    ['items not a list', '{"encrypted": false, "items": {"a": 1}}'],
    ['password protected', '{"encrypted": true, "passwordProtected": true, "salt": "x", "data": "2.a|b|c"}'],
    ['account restricted', '{"encrypted": true, "items": []}'],
  ])('%s is a format error', async (_name, content) => {
    await expect(parseBitwardenJSON(content)).rejects.toBeInstanceOf(ImportFormatError);
  });
});

describe('Bitwarden CSV', () => {
  test('the fixture reads as expected.json says', async () => {
    const text = readFixtureText('aegis-importers', 'bitwarden.csv');
    expectMatchesFixture(await parseBitwardenCSV(text), 'aegis-importers', 'bitwarden.csv');
    expect(looksLikeBitwardenCSV(text)).toBe(true);
    expect(looksLikeBitwardenJSON(text)).toBe(false);
  });

  test('reads quoted fields with commas, quotes and line breaks, CRLF records and the reprompt column', async () => {
    const csv = [
      csvHeader,
      'Work,1,login,"Acme, Inc.","line one',
      'line ""two""",,0,https://acme.example,"bob",pw,JBSWY3DPEHPK3PXP',
      ',,login,No TOTP,,,0,,carol,pw,',
      '',
      ',,login,Site,,,0,,dave,pw,"otpauth://totp/Site:dave?secret=JBSWY3DPEHPK3PXP&period=60"',
    ].join('\r\n');
    const { codes, skipped } = await parseBitwardenCSV(`\uFEFF${csv}\r\n`);
    expect(skipped).toEqual([]);
    expect(
      codes.map(({ issuer, account, period, display }) => [
        issuer,
        account,
        period,
        display.tags,
        display.pinned,
        display.note,
      ]),
    ).toEqual([
      ['Acme, Inc.', 'bob', 30, ['Work'], true, 'line one\nline "two"'],
      ['Site', 'dave', 60, [], false, ''],
    ]);
  });

  test('parseCSV follows RFC 4180', () => {
    expect(parseCSV('a,b\n"c,d","e""f"\r\n"g\nh",\n\n')).toEqual([
      ['a', 'b'],
      ['c,d', 'e"f'],
      ['g\nh', ''],
    ]);
    expect(parseCSV('x,y')).toEqual([['x', 'y']]);
    expect(parseCSV('a"b,c')).toEqual([['a"b', 'c']]);
    expect(() => parseCSV('a,"b\nc')).toThrow(ImportFormatError);
  });

  test.each([
    ['empty', ''],
    ['no header', 'a,b,c\n1,2,3'],
    ['an unclosed quote', `${csvHeader}\n,,login,"Name,,,,,,,JBSWY3DPEHPK3PXP`],
    ['garbage bytes', new Uint8Array([0xff, 0xfe, 0x00, 0x22])],
  ])('%s is a format error', async (_name, content) => {
    await expect(parseBitwardenCSV(content)).rejects.toBeInstanceOf(ImportFormatError);
  });

  test('short rows and control characters do not throw', async () => {
    const csv = `${csvHeader}\nshort\n,,login,"Na\u0000me\u0007",,,0,,"al\u001bice",pw,JBSWY3DPEHPK3PXP`;
    const { codes } = await parseBitwardenCSV(csv);
    expect(codes.map(({ issuer, account }) => [issuer, account])).toEqual([['Name', 'alice']]);
  });
});
