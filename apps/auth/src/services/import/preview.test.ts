// The preview of an import: fresh codes, duplicates of the vault (trashed ones included) and of the file
// itself, skipped entries passed through, and what is written for the user's choices.
import { codeDataOf } from '../../components/editor/testing/fixtures.ts';
import type { Code, CodeData } from '../types.ts';
import { parseOtpauthList } from './otpauth-list.ts';
import { codesToImport, previewImport } from './preview.ts';
import { readFixtureText } from './testing.ts';

const code = (data: CodeData, id: string): Code => ({ ...data, id, updatedAt: 1, uri: '' });

test('sorts the file into fresh codes, duplicates of the vault and repeats of the file', () => {
  const inVault = code(codeDataOf({ issuer: 'Vault', secret: 'JBSWY3DPEHPK3PXP' }), 'v1');
  const trashedInVault = code(
    codeDataOf({ issuer: 'Binned', secret: 'GEZDGNBVGY3TQOJQ', display: { trashed: true } }),
    'v2',
  );
  const file = [
    codeDataOf({ issuer: 'New', secret: 'MFRGGZDFMZTWQ2LK' }),
    codeDataOf({ issuer: 'Same secret, other name', secret: 'JBSWY3DPEHPK3PXP' }),
    codeDataOf({ issuer: 'In the trash', secret: 'GEZDGNBVGY3TQOJQ' }),
    codeDataOf({ issuer: 'New again', secret: 'MFRGGZDFMZTWQ2LK' }),
    codeDataOf({ issuer: 'HOTP, same secret', secret: 'MFRGGZDFMZTWQ2LK', type: 'hotp' }),
    codeDataOf({ issuer: 'Trashed in the file', secret: 'ONSWG4TFOQ', display: { trashed: true } }),
  ];
  const skipped = [{ issuer: 'm', account: 'o', reason: 'unsupportedType' as const, detail: 'motp' }];
  const preview = previewImport({ format: 'ente-plain', codes: file, skipped }, [inVault, trashedInVault]);
  expect(preview.fresh.map((entry) => entry.data.issuer)).toEqual(['New', 'HOTP, same secret', 'Trashed in the file']);
  expect(preview.duplicates.map((entry) => [entry.data.issuer, entry.of === 'file' ? 'file' : entry.of.id])).toEqual([
    ['Same secret, other name', 'v1'],
    ['In the trash', 'v2'],
    ['New again', 'file'],
  ]);
  expect(preview.skipped).toEqual(skipped);
  expect(preview.trashed).toBe(1);

  expect(codesToImport(preview, new Set()).map((data) => data.issuer)).toEqual([
    'New',
    'HOTP, same secret',
    'Trashed in the file',
  ]);
  const chosen = new Set([preview.duplicates[0]!.key]);
  expect(codesToImport(preview, chosen).map((data) => data.issuer)).toEqual([
    'New',
    'Same secret, other name',
    'HOTP, same secret',
    'Trashed in the file',
  ]);
});

test('importing what was imported adds nothing: every code is a duplicate', () => {
  const file = [
    codeDataOf({ issuer: 'A', secret: 'JBSWY3DPEHPK3PXP' }),
    codeDataOf({ issuer: 'B', secret: 'MFRGGZDFMZTWQ2LK' }),
  ];
  const vault = file.map((data, index) => code(data, `id${String(index)}`));
  const preview = previewImport({ format: 'otpauth-list', codes: file, skipped: [] }, vault);
  expect(preview.fresh).toEqual([]);
  expect(codesToImport(preview, new Set())).toEqual([]);
});

test("the same secret with other parameters is another code: Aegis' SHA-256/8/15 beside SHA-1/6/30", async () => {
  const result = await parseOtpauthList(readFixtureText('proton-pass-common', 'aegis-aegis-txt.txt'));
  const [sha256, sha1] = result.codes;
  expect([sha256?.secret, sha256?.algorithm, sha256?.digits, sha256?.period]).toEqual(['MYSECRET', 'sha256', 8, 15]);
  expect([sha1?.secret, sha1?.algorithm, sha1?.digits, sha1?.period]).toEqual(['MYSECRET', 'sha1', 6, 30]);

  const preview = previewImport(result, []);
  expect(preview.fresh.map((entry) => entry.data.account)).toEqual(['mylabel815256', 'mylabeldefault', 'Steam']);
  expect(preview.duplicates).toEqual([]);
  // Once imported, the same file adds nothing, and neither code stands for the other.
  const vault = result.codes.map((data, index) => code(data, `id${String(index)}`));
  const again = previewImport(result, vault);
  expect(again.duplicates.map((entry) => (entry.of === 'file' ? 'file' : entry.of.id))).toEqual(['id0', 'id1', 'id2']);
  const onlyDefault = previewImport(result, [vault[1]!]);
  expect(onlyDefault.fresh.map((entry) => entry.data.account)).toEqual(['mylabel815256', 'Steam']);
});

test('a repeat in the file is the same code spelt differently: same bytes and parameters', () => {
  const file = [
    codeDataOf({ issuer: 'A', secret: 'JBSWY3DPEHPK3PXP' }),
    codeDataOf({ issuer: 'A again', secret: 'JBSWY3DPEHPK3PXP', digits: 8 }),
    codeDataOf({ issuer: 'A in lower case', secret: 'jbswy3dpehpk3pxp' }),
  ];
  const preview = previewImport({ format: 'otpauth-list', codes: file, skipped: [] }, []);
  expect(preview.fresh.map((entry) => entry.data.issuer)).toEqual(['A', 'A again']);
  expect(preview.duplicates.map((entry) => [entry.data.issuer, entry.of])).toEqual([['A in lower case', 'file']]);
});

test('names that hold characters that draw nothing are shown and written without them', () => {
  const file = [codeDataOf({ issuer: '\u202Emoc.elgoog', account: 'me\u200B', display: { tags: ['\u2066x'] } })];
  const preview = previewImport({ format: 'otpauth-list', codes: file, skipped: [] }, []);
  const [written] = codesToImport(preview, new Set());
  expect([written?.issuer, written?.account, written?.display.tags]).toEqual(['moc.elgoog', 'me', ['x']]);
  expect(preview.fresh[0]?.data).toBe(written);
});
