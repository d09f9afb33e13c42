// Reading pasted links and QR texts (a code, a Google export, something else), and collecting the
// images of one Google export by batch id.
import { codeDataOf } from '../components/editor/testing/fixtures.ts';
import {
  CodeTextError,
  collectMigration,
  isComplete,
  partsRead,
  readCodeText,
  type MigrationPart,
} from './code-import.ts';
import { encodeMigration } from './migration.ts';

test('an otpauth link is one code', async () => {
  const result = await readCodeText('  otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub&digits=8 ');
  expect(result.kind).toBe('code');
  expect(result.kind === 'code' && result.data).toMatchObject({ issuer: 'GitHub', account: 'alice', digits: 8 });
});

test('a Google export link is a part with its codes and batch', async () => {
  const codes = [
    codeDataOf({ issuer: 'A', account: 'a' }),
    codeDataOf({ issuer: 'B', account: 'b', secret: 'GEZDGNBVGY3TQOJQ' }),
  ];
  const { uris } = encodeMigration(codes, { batchId: 77 });
  const result = await readCodeText(uris[0]!);
  expect(result.kind).toBe('migration');
  if (result.kind !== 'migration') return;
  expect(result.part.batch).toEqual({ id: 77, index: 0, size: 1 });
  expect(result.part.codes.map((code) => [code.issuer, code.account, code.secret])).toEqual([
    ['A', 'a', 'JBSWY3DPEHPK3PXP'],
    ['B', 'b', 'GEZDGNBVGY3TQOJQ'],
  ]);
});

test.each([
  ['https://example.com/', 'parse.notOtpauth'],
  ['otpauth://totp/GitHub:alice?secret=not-base32!', 'parse.invalidSecret'],
  ['otpauth://totp/GitHub:alice?issuer=GitHub', 'parse.missingSecret'],
  ['otpauth-migration://offline?data=%%%', 'parse.migrationInvalid'],
])('%s is no code: %s', async (text, key) => {
  const error: unknown = await readCodeText(text).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CodeTextError);
  expect((error as CodeTextError).errorKey).toBe(key);
});

describe('collectMigration', () => {
  const part = (id: number, index: number, size: number, issuer: string): MigrationPart => ({
    batch: { id, index, size },
    codes: [codeDataOf({ issuer })],
    skipped: [],
  });

  test('collects the images of a two-image export in any order', () => {
    const first = collectMigration(undefined, part(5, 1, 2, 'second'));
    expect(first.outcome).toBe('added');
    expect(partsRead(first.collection)).toBe(1);
    expect(isComplete(first.collection)).toBe(false);
    const second = collectMigration(first.collection, part(5, 0, 2, 'first'));
    expect(second.outcome).toBe('added');
    expect(isComplete(second.collection)).toBe(true);
    expect(second.collection.parts.map((p) => p?.codes[0]?.issuer)).toEqual(['first', 'second']);
  });

  test('an image read twice, or one of another export, changes nothing', () => {
    const { collection } = collectMigration(undefined, part(5, 0, 2, 'first'));
    expect(collectMigration(collection, part(5, 0, 2, 'again'))).toEqual({ collection, outcome: 'repeat' });
    expect(collectMigration(collection, part(6, 1, 2, 'other'))).toEqual({ collection, outcome: 'other-export' });
    expect(collectMigration(collection, part(5, 1, 3, 'other size'))).toEqual({ collection, outcome: 'other-export' });
  });
});
