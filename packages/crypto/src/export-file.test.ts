// Ente's encrypted export (export-file.ts): what we write opens with plain libsodium as Ente's apps open
// it, both end tags open, and a wrong password, bad parameters or a damaged envelope are refused.
import { describe, expect, test } from '@jest/globals';
import plainSodium from 'libsodium-wrappers-sumo';

import { cryptoAPI } from './api.ts';
import { fromB64, toB64, utf8Bytes } from './encoding.ts';
import { DecryptionError, InvalidEncodingError, KdfParamsError } from './errors.ts';
import { argon2idKey, decryptEnteExport, encryptEnteExport } from './export-file.ts';

const cost = { opsLimit: 1, memLimit: 8192 };
const text = 'otpauth://totp/Example:alice?secret=JBSWY3DPEHPK3PXP&issuer=Example\n';

/** An envelope written with plain libsodium, ending its one message with `tag`. */
async function envelopeWithTag(password: string, plain: string | Uint8Array, tag: number) {
  await plainSodium.ready;
  const salt = plainSodium.randombytes_buf(16);
  const key = plainSodium.crypto_pwhash(32, password, salt, 1, 8192, plainSodium.crypto_pwhash_ALG_ARGON2ID13);
  const { state, header } = plainSodium.crypto_secretstream_xchacha20poly1305_init_push(key);
  const encrypted = plainSodium.crypto_secretstream_xchacha20poly1305_push(
    state,
    typeof plain === 'string' ? utf8Bytes(plain) : plain,
    null,
    tag,
  );
  return {
    kdfParams: { memLimit: 8192, opsLimit: 1, salt: toB64(salt) },
    encryptedData: toB64(encrypted),
    encryptionNonce: toB64(header),
  };
}

describe('Ente encrypted export', () => {
  test('what we write decrypts with plain libsodium, FINAL-tagged, with the parameters in the file', async () => {
    const envelope = await encryptEnteExport('correct horse', text, cost);
    expect(envelope.version).toBe(1);
    expect(envelope.kdfParams).toMatchObject(cost);
    await plainSodium.ready;
    const key = plainSodium.crypto_pwhash(
      32,
      'correct horse',
      fromB64(envelope.kdfParams.salt),
      envelope.kdfParams.opsLimit,
      envelope.kdfParams.memLimit,
      plainSodium.crypto_pwhash_ALG_ARGON2ID13,
    );
    const state = plainSodium.crypto_secretstream_xchacha20poly1305_init_pull(fromB64(envelope.encryptionNonce), key);
    const pulled = plainSodium.crypto_secretstream_xchacha20poly1305_pull(state, fromB64(envelope.encryptedData), null);
    expect(pulled && new TextDecoder().decode(pulled.message)).toBe(text);
    expect(pulled && pulled.tag).toBe(plainSodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL);
  });

  test.each([
    ['TAG_MESSAGE (the mobile app)', 0],
    ['TAG_FINAL (the web app)', 3],
  ])('opens an export ending with %s', async (_, tag) => {
    expect(await decryptEnteExport('pw', await envelopeWithTag('pw', text, tag))).toBe(text);
  });

  test('refuses other tags, a wrong password and bytes that are not UTF-8', async () => {
    await expect(decryptEnteExport('pw', await envelopeWithTag('pw', text, 1))).rejects.toThrow(DecryptionError);
    const envelope = await encryptEnteExport('right', text, cost);
    await expect(decryptEnteExport('wrong', envelope)).rejects.toThrow(DecryptionError);
    const damaged = {
      ...envelope,
      encryptedData: toB64(fromB64(envelope.encryptedData).map((b, i) => (i === 3 ? b ^ 1 : b))),
    };
    await expect(decryptEnteExport('right', damaged)).rejects.toThrow(DecryptionError);
    const binary = await envelopeWithTag('pw', Uint8Array.of(0x6f, 0xff, 0xfe), 3);
    await expect(decryptEnteExport('pw', binary)).rejects.toThrow(DecryptionError);
  });

  test('refuses parameters out of bounds before deriving, and envelopes that are not base64', async () => {
    const envelope = await encryptEnteExport('pw', text, cost);
    const huge = { ...envelope, kdfParams: { ...envelope.kdfParams, memLimit: 8 * 1024 * 1024 * 1024 } };
    await expect(decryptEnteExport('pw', huge)).rejects.toThrow(KdfParamsError);
    const noSalt = { ...envelope, kdfParams: { ...envelope.kdfParams, salt: 'AAAA' } };
    await expect(decryptEnteExport('pw', noSalt)).rejects.toThrow(KdfParamsError);
    await expect(decryptEnteExport('pw', { ...envelope, encryptionNonce: 'AAAA' })).rejects.toThrow(
      InvalidEncodingError,
    );
    await expect(decryptEnteExport('pw', { ...envelope, encryptedData: '%%%' })).rejects.toThrow(InvalidEncodingError);
  });

  test('the API encrypts a batch of Blobs that each open on their own', async () => {
    const key = await cryptoAPI.generateKey();
    const blobs = await cryptoAPI.encryptBlobTexts(['one', 'two', ''], key);
    expect(await cryptoAPI.decryptBlobTexts(blobs, key)).toEqual(['one', 'two', '']);
    expect(new Set(blobs.map((blob) => blob.header)).size).toBe(3);
  });

  test('argon2idKey is libsodium Argon2id and keeps to the bounds', async () => {
    await plainSodium.ready;
    const salt = toB64(plainSodium.randombytes_buf(16));
    const expected = plainSodium.crypto_pwhash(
      32,
      'pw',
      fromB64(salt),
      2,
      19 * 1024 * 1024,
      plainSodium.crypto_pwhash_ALG_ARGON2ID13,
    );
    expect(await argon2idKey('pw', salt, 2, 19 * 1024 * 1024)).toBe(toB64(expected));
    await expect(argon2idKey('pw', salt, 100, 8192)).rejects.toThrow(KdfParamsError);
  });
});
