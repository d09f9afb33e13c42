/** @jest-environment node */
// Ente's encrypted export: the fixture opens to its entries with its password (both tags: see
// @ente/crypto's export-file tests), a wrong or missing password is said so, and damaged envelopes are
// format errors that never reach the key derivation.
import { cryptoAPI } from '@ente/crypto/api.ts';

import { looksLikeEnteEncrypted, parseEnteEncrypted } from './ente-encrypted.ts';
import { expectedFile, expectMatchesFixture, readFixtureText } from './testing.ts';
import { ImportFormatError, ImportPasswordError } from './types.ts';

const file = 'ente-encrypted.lowcomplexity.txt';
const text = readFixtureText('proton-pass-common', file);
const { password } = expectedFile('proton-pass-common', file);

describe('Ente encrypted export', () => {
  test('the fixture opens with its password to its entries, codeDisplay included', async () => {
    expect(looksLikeEnteEncrypted(text)).toBe(true);
    const result = await parseEnteEncrypted(text, { password });
    expectMatchesFixture(result, 'proton-pass-common', file);
  });

  test('asks for the password, and says when it is wrong', async () => {
    await expect(parseEnteEncrypted(text)).rejects.toEqual(new ImportPasswordError('needed'));
    await expect(parseEnteEncrypted(text, { password: 'not it' })).rejects.toEqual(new ImportPasswordError('wrong'));
  });

  test('an export of our own opens back to the same lines', async () => {
    const lines = 'otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP&issuer=A&codeDisplay=%7B%22pinned%22%3Atrue%7D';
    const envelope = await cryptoAPI.encryptEnteExport('pw', lines, { opsLimit: 1, memLimit: 8192 });
    const result = await parseEnteEncrypted(JSON.stringify(envelope), { password: 'pw' });
    expect(result.format).toBe('ente-encrypted');
    expect(result.codes.map((code) => [code.issuer, code.account, code.display.pinned])).toEqual([['A', 'b', true]]);
  });

  const envelope = JSON.parse(text) as Record<string, unknown>;
  test.each([
    ['another version', { version: 2 }],
    ['no kdfParams', { kdfParams: undefined }],
    ['memLimit as text', { kdfParams: { memLimit: '10240', opsLimit: 1, salt: 'FD9Gp/sr9DkWCt0P83maaA==' } }],
    [
      'a memory cost of 8 GiB',
      { kdfParams: { memLimit: 8 * 1024 ** 3, opsLimit: 1, salt: 'FD9Gp/sr9DkWCt0P83maaA==' } },
    ],
    ['a salt too short', { kdfParams: { memLimit: 10240, opsLimit: 1, salt: 'AAAA' } }],
    ['a nonce that is not base64', { encryptionNonce: '%%' }],
  ])('%s is a format error, not a wrong password', async (_name, change) => {
    await expect(parseEnteEncrypted(JSON.stringify({ ...envelope, ...change }), { password })).rejects.toBeInstanceOf(
      ImportFormatError,
    );
  });

  test.each([
    ['truncated', text.slice(0, 120)],
    ['garbage', new Uint8Array([0x7b, 0xff, 0x00])],
    ['an array', '[]'],
  ])('%s is a format error', async (_name, content) => {
    await expect(parseEnteEncrypted(content, { password })).rejects.toBeInstanceOf(ImportFormatError);
  });
});
