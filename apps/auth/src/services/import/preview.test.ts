// The preview of an import: fresh codes, duplicates of the vault (trashed ones included) and of the file
// itself, skipped entries passed through, and what is written for the user's choices.
import { codeDataOf } from '../../components/editor/testing/fixtures.ts';
import type { Code, CodeData } from '../types.ts';
import { codesToImport, previewImport } from './preview.ts';

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
