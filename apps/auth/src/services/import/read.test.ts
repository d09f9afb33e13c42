/** @jest-environment node */
// The import entry point on every fixture file: the format is found from the content alone (the file is
// handed over as a nameless Blob), encrypted files open with their passwords, images are QR-decoded, and
// hostile files end in one of the three import errors, never another exception.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { codeDataOf } from '../../components/editor/testing/fixtures.ts';
import { encodeMigration } from '../migration.ts';
import { provideQRReaderWasm } from '../qr-reader.ts';
import { maxImportBytes, readImport } from './read.ts';
import { expectedOf, expectMatchesExpected, fixturePath, importFormatOf, readFixture } from './testing.ts';
import { ImportFormatError, ImportPasswordError, ImportSizeError } from './types.ts';

beforeAll(() => {
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  provideQRReaderWasm(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
});

const folders = readdirSync(path.dirname(fixturePath('ente', 'expected.json')) + '/..').filter(
  (name) => !name.includes('.'),
);
const files = folders.flatMap((folder) =>
  Object.entries(expectedOf(folder).files).map(([file, expected]) => ({ folder, file, expected })),
);
const blobOf = (folder: string, file: string) => new Blob([new Uint8Array(readFixture(folder, file))]);

test('every fixture folder is covered', () => {
  expect(folders.sort()).toEqual(['aegis-importers', 'ente', 'extract-otp-secrets', 'proton-pass-common', 'stratum']);
  expect(files.length).toBeGreaterThanOrEqual(36);
});

describe.each(files)('$folder/$file', ({ folder, file, expected }) => {
  test('is detected and read to exactly its entries', async () => {
    const result = await readImport(blobOf(folder, file), { password: expected.password ?? undefined });
    if (expected.format === 'ga-qr-image') {
      expect(result.format).toBe('google-migration');
    } else if (expected.format === 'ente-plain' && !readFixture(folder, file).includes('codeDisplay')) {
      // An Ente export without codeDisplay (written by an older app) is a plain list of URIs.
      expect(result.format).toBe('otpauth-list');
    } else {
      expect(result.format).toBe(importFormatOf(expected.format));
    }
    // A file whose entries are all invalid (`error` in expected.json) has each of them skipped with a reason.
    expectMatchesExpected(result, expected.entries, expected.unsupported ?? [], {
      allowOtherSkips: expected.error !== undefined,
    });
    if (expected.error !== undefined) expect(result.skipped.length).toBeGreaterThan(0);
  });

  if (expected.password) {
    test('asks for its password and refuses a wrong one', async () => {
      await expect(readImport(blobOf(folder, file))).rejects.toEqual(new ImportPasswordError('needed'));
      await expect(readImport(blobOf(folder, file), { password: 'wrong password' })).rejects.toEqual(
        new ImportPasswordError('wrong'),
      );
    });
  }

  const bytes = readFixture(folder, file);
  if (bytes[0] === '{'.charCodeAt(0) || bytes[0] === '['.charCodeAt(0)) {
    test('truncated anywhere, it is a format error or a smaller import, never another failure', async () => {
      for (const fraction of [0.1, 0.5, 0.9]) {
        const cut = new Blob([new Uint8Array(bytes.subarray(0, Math.floor(bytes.length * fraction)))]);
        await expect(readImport(cut, { password: expected.password ?? undefined })).rejects.toBeInstanceOf(
          ImportFormatError,
        );
      }
    });
  }
});

describe('hostile input', () => {
  test('a 50 MB file is refused by its size before it is read', async () => {
    const big = new Blob([new Uint8Array(50 * 1024 * 1024).fill(0x7b)]);
    await expect(readImport(big)).rejects.toEqual(new ImportSizeError(maxImportBytes));
    await expect(readImport('x'.repeat(maxImportBytes + 1))).rejects.toBeInstanceOf(ImportSizeError);
  });

  test.each([
    ['empty', ''],
    ['blank', ' \n\t '],
    ['prose', 'Dear diary, today I exported my codes.'],
    ['binary garbage', new Uint8Array([0x00, 0x13, 0x37, 0xff, 0xfe, 0x80])],
    ['NUL and controls', '\u0000\u0001\u0002otpauth'],
    ['a lone surrogate', '\ud800{"db": 1}'],
    ['JSON of no known shape', '{"hello": "world"}'],
    ['JSON of the wrong types', '{"header": 5, "db": "x"}'],
    ['a number', '42'],
    ['a PNG header and nothing else', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ])('%s is a format error', async (_name, content) => {
    await expect(readImport(typeof content === 'string' ? content : new Blob([content]))).rejects.toBeInstanceOf(
      ImportFormatError,
    );
  });

  test('an image with no QR code says so', async () => {
    // A 1×1 white PNG.
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAG7buVgAAAABJRU5ErkJggg=='),
      (c) => c.charCodeAt(0),
    );
    await expect(readImport(new Blob([png]))).rejects.toEqual(
      new ImportFormatError('the image holds no QR code that can be read'),
    );
  });

  test('a migration link with bad protobuf is skipped with its reason, beside the good ones', async () => {
    const { uris } = encodeMigration([codeDataOf({ issuer: 'Good', account: 'a', secret: 'JBSWY3DPEHPK3PXP' })]);
    const text = `${uris[0] ?? ''}\notpauth-migration://offline?data=CgQIAhIA%2F%2F%2F%2F`;
    const result = await readImport(text);
    expect(result.codes.map((code) => code.issuer)).toEqual(['Good']);
    expect(result.skipped).toEqual([{ issuer: '', account: '', reason: 'malformed' }]);
  });

  test("Ente's legacy JSON export keeps each item's display as its codeDisplay", async () => {
    const json = JSON.stringify({
      items: [
        {
          rawData: 'otpauth://totp/Old:me?secret=JBSWY3DPEHPK3PXP&issuer=Old',
          display: { pinned: true, tags: ['work'], trashed: false, note: 'n' },
        },
        { rawData: 42 },
      ],
    });
    const result = await readImport(new Blob([json]));
    expect(result.format).toBe('ente-plain');
    expect(
      result.codes.map((code) => [code.issuer, code.display.pinned, code.display.tags, code.display.note]),
    ).toEqual([['Old', true, ['work'], 'n']]);
    expect(result.skipped).toEqual([{ issuer: '', account: '', reason: 'malformed' }]);
  });

  test('pasted text is read like a file', async () => {
    const result = await readImport(
      'otpauth://totp/Pasted:me?secret=JBSWY3DPEHPK3PXP&issuer=Pasted\r\notpauth://motp/x:y?secret=00',
    );
    expect(result.codes.map((code) => code.issuer)).toEqual(['Pasted']);
    expect(result.skipped.map((skip) => skip.reason)).toEqual(['unsupportedType']);
  });
});
