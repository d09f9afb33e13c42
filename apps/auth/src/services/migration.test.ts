import { readFileSync } from 'node:fs';
import path from 'node:path';

import { base64Encode, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import fc from 'fast-check';

import { base32Encode } from './base32.ts';
import { CodeParseError, emptyDisplay } from './code-uri.ts';
import { decodeMigrationURI, encodeMigration } from './migration.ts';
import { otpAt } from './otp.ts';
import type { CodeData } from './types.ts';

const testdata = path.join(__dirname, 'testdata', 'extract-otp-secrets');

interface Expected {
  type: string;
  issuer: string;
  account: string;
  secret: string;
  algorithm: string;
  digits: number;
  period?: number;
  counter?: number;
}

function fixture(file: string): { uris: string[]; entries: Expected[] } {
  const uris = readFileSync(path.join(testdata, file), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('otpauth-migration://'));
  const expected = JSON.parse(readFileSync(path.join(testdata, 'expected.json'), 'utf8')) as {
    files: Record<string, { entries: Expected[] }>;
  };
  return { uris, entries: expected.files[file]?.entries ?? [] };
}

function errorKeyOf(uri: string): string | undefined {
  try {
    decodeMigrationURI(uri);
    return undefined;
  } catch (error) {
    if (error instanceof CodeParseError) return error.errorKey;
    throw error;
  }
}

/** A payload built field by field, for cases no fixture has. */
function payload(
  entries: {
    secret?: Uint8Array;
    name?: string;
    issuer?: string;
    algorithm?: number;
    digits?: number;
    type?: number;
    counter?: number;
  }[],
  batch?: { size: number; index: number; id: number },
): string {
  const writer = new BinaryWriter();
  for (const entry of entries) {
    writer.tag(1, WireType.LengthDelimited).fork();
    if (entry.secret) writer.tag(1, WireType.LengthDelimited).bytes(entry.secret);
    if (entry.name !== undefined) writer.tag(2, WireType.LengthDelimited).string(entry.name);
    if (entry.issuer !== undefined) writer.tag(3, WireType.LengthDelimited).string(entry.issuer);
    if (entry.algorithm !== undefined) writer.tag(4, WireType.Varint).int32(entry.algorithm);
    if (entry.digits !== undefined) writer.tag(5, WireType.Varint).int32(entry.digits);
    if (entry.type !== undefined) writer.tag(6, WireType.Varint).int32(entry.type);
    if (entry.counter !== undefined) writer.tag(7, WireType.Varint).int64(entry.counter);
    // A field newer exports carry (an opaque id): ignored.
    writer.tag(8, WireType.LengthDelimited).string('6194bc1737727798793');
    writer.join();
  }
  writer.tag(2, WireType.Varint).int32(2);
  if (batch) {
    writer.tag(3, WireType.Varint).int32(batch.size);
    writer.tag(4, WireType.Varint).int32(batch.index);
    writer.tag(5, WireType.Varint).int32(batch.id);
  }
  return base64Encode(writer.finish());
}

const secretBytes = new Uint8Array([0x66, 0x24, 0x41, 0x44, 0x93]);

describe('decodeMigrationURI', () => {
  test.each(['example_export.txt', 'example_export_only_totp.txt'])('the codes of %s', (file) => {
    const { uris, entries } = fixture(file);
    const codes = uris.flatMap((uri) => {
      const part = decodeMigrationURI(uri);
      expect(part.skipped).toEqual([]);
      expect(part.batch).toMatchObject({ index: 0, size: 1 });
      return part.codes;
    });
    expect(codes).toHaveLength(entries.length);
    codes.forEach((code, i) => {
      const entry = entries[i]!;
      expect(code).toEqual({
        type: entry.type,
        issuer: entry.issuer,
        account: entry.account,
        secret: entry.secret,
        algorithm: entry.algorithm.toLowerCase(),
        digits: entry.digits,
        period: 30,
        counter: entry.counter ?? 0,
        display: emptyDisplay(),
        unknownParams: [],
      });
    });
  });

  test('the batch of a multi-QR export, with a negative id', () => {
    const data = payload(
      [{ secret: secretBytes, name: 'MYLABEL', issuer: 'MYISSUER', algorithm: 2, digits: 2, type: 2 }],
      {
        size: 4,
        index: 2,
        id: -1_234_567,
      },
    );
    const part = decodeMigrationURI(`otpauth-migration://offline?data=${encodeURIComponent(data)}`);
    expect(part.batch).toEqual({ id: -1_234_567, index: 2, size: 4 });
    // formats.md's decoded example (Proton's test string).
    expect(part.codes[0]).toMatchObject({
      issuer: 'MYISSUER',
      account: 'MYLABEL',
      secret: base32Encode(secretBytes),
      algorithm: 'sha256',
      digits: 8,
      type: 'totp',
    });
  });

  test('the data parameter in every spelling: encoded or not, URL-safe, unpadded, form-decoded', () => {
    const { uris } = fixture('example_export.txt');
    const uri = uris[0]!;
    const expected = decodeMigrationURI(uri);
    const base64 = decodeURIComponent(uri.split('data=')[1]!);
    expect(base64).toMatch(/[+/]/);
    const spellings = [
      `otpauth-migration://offline?data=${base64}`,
      `otpauth-migration://offline?data=${base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`,
      `otpauth-migration://offline?data=${base64.replaceAll('+', ' ')}`,
      `  OTPAUTH-MIGRATION://offline?foo=1&data=${encodeURIComponent(base64)}\n`,
    ];
    for (const spelling of spellings) expect(decodeMigrationURI(spelling)).toEqual(expected);
  });

  test('the issuer prefix of the name is dropped only when it is the issuer', () => {
    const data = payload([
      { secret: secretBytes, name: 'GitHub:alice', issuer: 'GitHub' },
      { secret: secretBytes, name: 'Other:bob', issuer: 'GitHub' },
      { secret: secretBytes, name: 'encoding: ¿äÄéÉ? (demo)' },
      { secret: secretBytes, name: ' Google4 code ', issuer: ' Google4 ' },
    ]);
    const { codes } = decodeMigrationURI(`otpauth-migration://offline?data=${encodeURIComponent(data)}`);
    expect(codes.map((c) => [c.issuer, c.account])).toEqual([
      ['GitHub', 'alice'],
      ['GitHub', 'Other:bob'],
      ['', 'encoding: ¿äÄéÉ? (demo)'],
      ['Google4', 'Google4 code'],
    ]);
  });

  test('entries that cannot be codes are skipped with the reason', () => {
    const data = payload([
      { secret: secretBytes, name: 'md5', issuer: 'A', algorithm: 4 },
      { secret: secretBytes, name: 'seven', algorithm: 9 },
      { secret: secretBytes, name: 'digits', digits: 3 },
      { secret: secretBytes, name: 'type', type: 7 },
      { name: 'empty', issuer: 'B' },
      { secret: secretBytes, name: 'negative counter', type: 1, counter: -5 },
      { secret: secretBytes, name: 'ok', type: 1, counter: 42 },
    ]);
    const { codes, skipped } = decodeMigrationURI(`otpauth-migration://offline?data=${encodeURIComponent(data)}`);
    expect(codes).toEqual([expect.objectContaining({ account: 'ok', type: 'hotp', counter: 42 })]);
    expect(skipped).toEqual([
      { name: 'A (md5)', reasonKey: 'parse.unsupportedAlgorithm', values: { algorithm: 'MD5' } },
      { name: 'seven', reasonKey: 'parse.unsupportedAlgorithm', values: { algorithm: '9' } },
      { name: 'digits', reasonKey: 'parse.invalidDigits', values: { value: '3' } },
      { name: 'type', reasonKey: 'parse.unsupportedType', values: { type: '7' } },
      { name: 'B (empty)', reasonKey: 'parse.missingSecret', values: {} },
      { name: 'negative counter', reasonKey: 'parse.invalidCounter', values: { value: '-5' } },
    ]);
  });

  test('a Steam issuer makes a Steam code, as reading its stored URI would', () => {
    const data = payload([{ secret: secretBytes, name: 'Steam:me', issuer: 'Steam' }]);
    expect(decodeMigrationURI(`otpauth-migration://offline?data=${encodeURIComponent(data)}`).codes[0]).toMatchObject({
      type: 'steam',
      digits: 5,
    });
  });

  test('an empty export has no codes', () => {
    expect(decodeMigrationURI(`otpauth-migration://offline?data=${payload([])}`)).toEqual({
      codes: [],
      batch: { id: 0, index: 0, size: 1 },
      skipped: [],
    });
  });

  test.each([
    ['no data', 'otpauth-migration://offline'],
    ['an empty data parameter', 'otpauth-migration://offline?data='],
    ['bad percent-encoding', 'otpauth-migration://offline?data=%E0%A4%A'],
    ['not Base64', 'otpauth-migration://offline?data=!!!!'],
    ['not a protobuf', `otpauth-migration://offline?data=${btoa('hello, world')}`],
    [
      'a truncated payload',
      `otpauth-migration://offline?data=${payload([{ secret: secretBytes, name: 'x' }]).slice(0, 12)}`,
    ],
    ['another scheme', 'otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP'],
  ])('%s is a clear error', (_, uri) => {
    expect(errorKeyOf(uri)).toBe('parse.migrationInvalid');
  });

  test('never crashes, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const uri = `otpauth-migration://offline?data=${encodeURIComponent(base64Encode(bytes))}`;
        try {
          const part = decodeMigrationURI(uri);
          for (const code of part.codes) expect(otpAt(code, 0)).toMatch(/^[0-9A-Z]+$/);
        } catch (error) {
          expect(error).toBeInstanceOf(CodeParseError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('encodeMigration', () => {
  const base: CodeData = {
    type: 'totp',
    issuer: 'GitHub',
    account: 'alice@example.com',
    secret: 'JBSWY3DPEHPK3PXP',
    algorithm: 'sha1',
    digits: 6,
    period: 30,
    counter: 0,
    display: emptyDisplay(),
    unknownParams: [],
  };

  test('round trip through the decoder, in QR-sized parts of one batch', () => {
    const codes: CodeData[] = Array.from({ length: 23 }, (_, i) => ({
      ...base,
      type: i % 2 ? 'hotp' : 'totp',
      issuer: i % 3 ? `Issuer ${i} 银行` : '',
      account: `user${i}@example.com`,
      secret: base32Encode(new Uint8Array([i, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
      algorithm: (['sha1', 'sha256', 'sha512'] as const)[i % 3]!,
      digits: i % 4 ? 6 : 8,
      counter: i % 2 ? i * 1000 : 0,
    }));
    const { uris, skipped } = encodeMigration(codes, { batchId: 77, perQR: 10 });
    expect(skipped).toEqual([]);
    expect(uris).toHaveLength(3);
    const parts = uris.map(decodeMigrationURI);
    expect(parts.map((part) => part.batch)).toEqual([
      { id: 77, index: 0, size: 3 },
      { id: 77, index: 1, size: 3 },
      { id: 77, index: 2, size: 3 },
    ]);
    expect(parts.flatMap((part) => part.codes)).toEqual(codes);
  });

  test('codes Google Authenticator cannot hold are skipped', () => {
    const steam: CodeData = { ...base, type: 'steam', digits: 5 };
    const sevenDigits: CodeData = { ...base, digits: 7 };
    const longPeriod: CodeData = { ...base, period: 60 };
    const hotpPeriod: CodeData = { ...base, type: 'hotp', period: 60, counter: 3 };
    const { uris, skipped } = encodeMigration([base, steam, sevenDigits, longPeriod, hotpPeriod], { batchId: 1 });
    expect(skipped).toEqual([steam, sevenDigits, longPeriod]);
    expect(decodeMigrationURI(uris[0]!).codes).toEqual([base, { ...hotpPeriod, period: 30 }]);
  });

  test('nothing to export still gives one (empty) part, with a random batch id', () => {
    const { uris } = encodeMigration([]);
    expect(uris).toHaveLength(1);
    expect(decodeMigrationURI(uris[0]!).codes).toEqual([]);
  });
});
