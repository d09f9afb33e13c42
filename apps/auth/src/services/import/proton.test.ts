/** @jest-environment node */

import { looksLikeProton, parseProton } from './proton.ts';
import { expectedFile, expectMatchesExpected, expectMatchesFixture, readFixture, readFixtureText } from './testing.ts';
import { ImportFormatError, ImportPasswordError } from './types.ts';

const entry = (content: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) => ({
  id: crypto.randomUUID(),
  content: {
    uri: 'otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP&issuer=Example',
    entry_type: 'Totp',
    name: 'alice',
    ...content,
  },
  note: null,
  ...fields,
});

const exportOf = (entries: unknown) => JSON.stringify({ version: 1, entries });

describe('Proton Authenticator JSON', () => {
  test('the fixture reads as expected.json says', async () => {
    const file = 'proton_authenticator.json';
    const expected = expectedFile('aegis-importers', file);
    expect(expected.format).toBe('proton-authenticator-json');
    for (const content of [
      readFixtureText('aegis-importers', file),
      new Uint8Array(readFixture('aegis-importers', file)),
    ]) {
      const result = await parseProton(content);
      expect(result.format).toBe('proton');
      expectMatchesExpected(result, expected.entries, expected.unsupported ?? []);
    }
    expect(looksLikeProton(readFixture('aegis-importers', file))).toBe(true);
  });

  test('is not detected in other exports', () => {
    expect(looksLikeProton(readFixtureText('aegis-importers', 'aegis_plain.json'))).toBe(false);
    expect(looksLikeProton(readFixtureText('aegis-importers', 'bitwarden.json'))).toBe(false);
    expect(looksLikeProton(readFixtureText('aegis-importers', '2fas_authenticator_plain_v3.2fas'))).toBe(false);
  });

  test('reads Steam entries, keeps the note, and names codes from `name` when the URI has no account', async () => {
    const { codes, skipped } = await parseProton(
      exportOf([
        entry({ uri: 'steam://JBSWY3DPEHPK3PXP', entry_type: 'Steam', name: 'gamer' }),
        entry({ uri: 'otpauth://totp/?secret=JBSWY3DPEHPK3PXP&issuer=Site', name: 'bob' }, { note: 'backup\ncodes' }),
      ]),
    );
    expect(skipped).toEqual([]);
    expect(
      codes.map(({ type, issuer, account, digits, display }) => [type, issuer, account, digits, display.note]),
    ).toEqual([
      ['steam', 'Steam', 'gamer', 5, ''],
      ['totp', 'Site', 'bob', 6, 'backup\ncodes'],
    ]);
  });

  test('skips what it cannot read, with the reason', async () => {
    const { codes, skipped } = await parseProton(
      exportOf([
        entry({ uri: 'otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&algorithm=SHA384' }),
        entry({ uri: 'otpauth://yaotp/A:b?secret=JBSWY3DPEHPK3PXP' }),
        entry({ uri: 'otpauth://totp/A:b?secret=01!' }),
        entry({ uri: 42, name: 'num' }),
        entry({}, { content: 'x' }),
        null,
      ]),
    );
    expect(codes).toEqual([]);
    expect(skipped).toEqual([
      { issuer: '', account: 'alice', reason: 'unsupportedAlgorithm', detail: 'SHA384' },
      { issuer: '', account: 'alice', reason: 'unsupportedType', detail: 'yaotp' },
      { issuer: '', account: 'alice', reason: 'badSecret' },
      { issuer: '', account: 'num', reason: 'malformed' },
      { issuer: '', account: '', reason: 'malformed' },
      { issuer: '', account: '', reason: 'malformed' },
    ]);
  });

  describe('encrypted', () => {
    const file = 'proton_authenticator_backup_encrypted_1231246.json';
    const text = readFixtureText('ente', file);
    const { password } = expectedFile('ente', file);

    test('opens with its password (Argon2id in the crypto worker, AES-GCM) to the expected entries', async () => {
      expect(looksLikeProton(text)).toBe(true);
      expectMatchesFixture(await parseProton(text, { password }), 'ente', file);
    });

    test('asks for the password, and refuses a wrong one as wrong', async () => {
      await expect(parseProton(text)).rejects.toEqual(new ImportPasswordError('needed'));
      await expect(parseProton(text, { password: `${password ?? ''}x` })).rejects.toEqual(
        new ImportPasswordError('wrong'),
      );
    });

    test.each([
      ['a salt that is not 16 bytes', { salt: 'AAAA' }],
      ['content too short for a nonce and a tag', { content: 'AAAAAAAA' }],
      ['content that is not base64', { content: '%%%' }],
    ])('%s is a format error, before any password is asked', async (_name, change) => {
      const damaged = JSON.stringify({ ...(JSON.parse(text) as object), ...change });
      await expect(parseProton(damaged)).rejects.toBeInstanceOf(ImportFormatError);
    });
  });

  test.each([
    ['truncated', readFixtureText('aegis-importers', 'proton_authenticator.json').slice(0, 200)],
    ['empty', ''],
    ['garbage bytes', new Uint8Array([0xff, 0x00, 0xfe, 0x7b])],
    ['an array', '[]'],
    ['no entries', '{"version": 1}'],
    ['entries not a list', '{"version": 1, "entries": "x"}'],
  ])('%s is a format error', async (_name, content) => {
    await expect(parseProton(content)).rejects.toBeInstanceOf(ImportFormatError);
  });
});
