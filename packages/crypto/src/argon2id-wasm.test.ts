// argon2id-wasm.ts against libsodium's crypto_pwhash: the same keys for Ente's interactive parameters (a public
// link's password), other limits, passwords and salts; the same bounds refused before running.
import { randomBytes } from 'node:crypto';

import { describe, expect, test } from '@jest/globals';

import { argon2idKeyB64 } from './argon2id-wasm.ts';
import { toB64 } from './encoding.ts';
import { KdfParamsError } from './errors.ts';
import { deriveKeyB64, INTERACTIVE_MEM_LIMIT, INTERACTIVE_OPS_LIMIT } from './kdf.ts';

describe('argon2idKeyB64', () => {
  test("Ente's interactive limits (a link's password, ops 2, 64 MiB) give libsodium's key", async () => {
    const salt = toB64(randomBytes(16));
    expect(await argon2idKeyB64('correct horse', salt, INTERACTIVE_OPS_LIMIT, INTERACTIVE_MEM_LIMIT)).toBe(
      await deriveKeyB64('correct horse', salt, INTERACTIVE_OPS_LIMIT, INTERACTIVE_MEM_LIMIT),
    );
  });

  test.each([
    ['x', 1, 8 * 1024],
    ['pässwörd ✓ 密码', 3, 1024 * 1024],
    ['a'.repeat(300), 4, 256 * 1024],
  ])('password %j, ops %i, memory %i: libsodium’s key', async (password, opsLimit, memLimit) => {
    const salt = randomBytes(16);
    expect(await argon2idKeyB64(password, salt, opsLimit, memLimit)).toBe(
      await deriveKeyB64(password, salt, opsLimit, memLimit),
    );
  });

  test('parameters outside the bounds are refused before running', async () => {
    const salt = toB64(randomBytes(16));
    await expect(argon2idKeyB64('pw', salt, 0, 8192)).rejects.toThrow(KdfParamsError);
    await expect(argon2idKeyB64('pw', salt, 2, 8192 + 1)).rejects.toThrow(KdfParamsError);
    await expect(argon2idKeyB64('pw', toB64(randomBytes(15)), 2, 8192)).rejects.toThrow(KdfParamsError);
    await expect(argon2idKeyB64('pw', salt, 64, 1024 * 1024 * 1024)).rejects.toThrow(KdfParamsError);
    // hash-wasm takes no empty password (no link has one: the page submits none).
    await expect(argon2idKeyB64('', salt, 2, 8192)).rejects.toThrow('Password must be specified');
  });
});
