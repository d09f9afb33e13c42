// The crypto API (api.ts) against the vectors of docs/protocol.md#test-vectors, its Argon2id bounds and
// run reporting, the SRP handles, and the in-process path of client.ts. (The ops-16 Argon2id vector
// itself is asserted once, in vectors.test.ts.)
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import plainSodium from 'libsodium-wrappers-sumo';

import { createCryptoAPI, cryptoAPI, openSrpHandleCount, SRP_HANDLE_TTL_MS, type KeyAttributesLike } from './api.ts';
import { encryptBlobB64 } from './blob.ts';
import { cryptoWorker } from './client.ts';
import { fromB64, toB64, utf8Bytes } from './encoding.ts';
import {
  DecryptionError,
  InsufficientMemoryError,
  KdfParamsError,
  RecoveryKeyError,
  SrpError,
  SrpSessionError,
} from './errors.ts';
import { checkKdfParams, deriveLoginSubKeyB64, type Argon2Run } from './kdf.ts';
import { keyPairFromSeedB64 } from './keys.ts';
import { sodiumReady } from './sodium.ts';
import { computeSrpVerifierB64, createSrpServerB64, verifySrpClientProofB64 } from './srp.ts';
import { srpVector } from './testing/vectors.ts';

const range = (from: number, to: number) => Uint8Array.from({ length: to - from + 1 }, (_, i) => from + i);
const b64Range = (from: number, to: number) => toB64(range(from, to));

const salt = 'AAECAwQFBgcICQoLDA0ODw==';
const opsSixteenKek = 'o2F5q2WE3xx6dyxyBM0KOKyQZ8XVPhOOemaTDzMuLvg=';
const MiB = 1024 * 1024;

function observed() {
  const runs: Argon2Run[] = [];
  return { runs, api: createCryptoAPI((run) => runs.push(run)) };
}

describe('deriveKEK', () => {
  test('the Argon2id vectors (ops 2, 64 MiB), one reported run', async () => {
    const { runs, api } = observed();
    expect(await api.deriveKEK('password', { kekSalt: salt, opsLimit: 2, memLimit: 64 * MiB })).toBe(
      'P94AI+nJBlLtrBR4SXHkJY4IR1G84AtZZdmVxjmxXP8=',
    );
    expect(await api.deriveKEK('pässwörd 🔑', { kekSalt: salt, opsLimit: 2, memLimit: 64 * MiB })).toBe(
      'R6yIGSYJ+LP0al/Sf/7wrbxNiWyZ0wl9Cmw+0igfPGA=',
    );
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({ opsLimit: 2, memLimit: 64 * MiB, ok: true });
    expect(runs[0]!.end).toBeGreaterThanOrEqual(runs[0]!.start);
  });

  test.each([
    ['ops 0', 0, 64 * MiB, 'opsLimit'],
    ['ops 65', 65, 64 * MiB, 'opsLimit'],
    ['fractional ops', 2.5, 64 * MiB, 'opsLimit'],
    ['memory below 8 KiB', 2, 4096, 'memLimit'],
    ['memory above 1 GiB', 2, 2048 * MiB, 'memLimit'],
    ['memory not in whole KiB', 2, 64 * MiB + 1, 'memLimit'],
    ['ops × memory above 4 GiB', 8, 1024 * MiB, 'opsLimit'],
    ['a NaN', Number.NaN, 64 * MiB, 'opsLimit'],
  ] as const)('refuses %s with KdfParamsError before running', async (_, opsLimit, memLimit, reason) => {
    const { runs, api } = observed();
    const error = await api.deriveKEK('password', { kekSalt: salt, opsLimit, memLimit }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KdfParamsError);
    expect(error).toMatchObject({ name: 'KdfParamsError', reason });
    expect(runs).toHaveLength(0);
  });

  test('refuses a salt that is not 16 bytes of base64', async () => {
    for (const kekSalt of ['AAECAwQFBgcICQoLDA0O', 'not base64!', '']) {
      await expect(cryptoAPI.deriveKEK('password', { kekSalt, opsLimit: 2, memLimit: 64 * MiB })).rejects.toMatchObject(
        { name: 'KdfParamsError', reason: 'salt' },
      );
    }
  });

  test('accepts every parameter pair accounts have', () => {
    for (const [opsLimit, memLimit] of [
      [4, 1024 * MiB],
      [8, 512 * MiB],
      [16, 256 * MiB],
      [32, 128 * MiB],
      [2, 64 * MiB],
      [1, 8 * 1024],
      [64, 64 * MiB],
    ] as const) {
      expect(() => checkKdfParams({ salt, opsLimit, memLimit })).not.toThrow();
    }
  });
});

describe('the sensitive derivation and its memory fallback', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  test('halves the memory while Argon2id fails, reporting every attempt', async () => {
    const sodium = await sodiumReady();
    const failAbove128MiB = (_length: number, _password: unknown, _salt: unknown, _ops: number, memLimit: number) => {
      if (memLimit > 128 * MiB) throw new Error('out of memory');
      return new Uint8Array(32).fill(7);
    };
    jest.spyOn(sodium, 'crypto_pwhash').mockImplementation(failAbove128MiB as unknown as typeof sodium.crypto_pwhash);
    const { runs, api } = observed();
    const derived = await api.deriveSensitiveKEK('password');
    expect(derived).toMatchObject({ key: toB64(new Uint8Array(32).fill(7)), opsLimit: 32, memLimit: 128 * MiB });
    expect(fromB64(derived.salt)).toHaveLength(16);
    expect(runs.map(({ opsLimit, memLimit, ok }) => [opsLimit, memLimit, ok])).toEqual([
      [16, 256 * MiB, false],
      [32, 128 * MiB, true],
    ]);
  });

  test('gives up below 128 MiB with InsufficientMemoryError', async () => {
    const sodium = await sodiumReady();
    jest.spyOn(sodium, 'crypto_pwhash').mockImplementation(() => {
      throw new Error('out of memory');
    });
    const { runs, api } = observed();
    await expect(api.generateKeyAttributes('password')).rejects.toBeInstanceOf(InsufficientMemoryError);
    expect(runs).toHaveLength(2);
  });
});

describe('key attributes', () => {
  test('generateKeyAttributes: sensitive parameters, one run, and every key opens', async () => {
    const { runs, api } = observed();
    const generated = await api.generateKeyAttributes('password');
    const attrs = generated.keyAttributes;
    expect([attrs.opsLimit, attrs.memLimit]).toEqual([16, 256 * MiB]);
    expect(runs).toHaveLength(1);
    expect(fromB64(attrs.kekSalt)).toHaveLength(16);
    expect(await api.decryptMasterKey(generated.kek, attrs)).toBe(generated.masterKey);
    expect(await api.recoveryKeyFromMasterKey(generated.masterKey, attrs)).toBe(generated.recoveryKey);
    expect(await api.masterKeyFromRecoveryKey(generated.recoveryKey, attrs)).toBe(generated.masterKey);
    const setup = generated.srpSetupAttributes;
    expect(setup.loginSubKey).toBe(await deriveLoginSubKeyB64(generated.kek));
    expect(setup.srpVerifier).toBe(computeSrpVerifierB64(setup));
    await expect(api.decryptMasterKey(generated.recoveryKey, attrs)).rejects.toBeInstanceOf(DecryptionError);
    await expect(api.masterKeyFromRecoveryKey(generated.masterKey, attrs)).rejects.toBeInstanceOf(DecryptionError);
  }, 60_000);

  test('decryptMasterKey: the masterKey vector under the ops-16 KEK', async () => {
    const attrs = {
      encryptedKey: 'gajmmWtbrzdLUVCsqGg+aeKsDWB/cffDBws9XSnrd2ZlMOfmWrX7m+5AYLPyPN4Y',
      keyDecryptionNonce: 'MDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZH',
    };
    expect(await cryptoAPI.decryptMasterKey(opsSixteenKek, attrs)).toBe(b64Range(0x60, 0x7f));
    await expect(cryptoAPI.decryptMasterKey(b64Range(0, 31), attrs)).rejects.toMatchObject({
      name: 'DecryptionError',
    });
  });

  test('makeInteractiveKeyAttributes replaces only the KEK fields (ops 2, 64 MiB, fresh salt)', async () => {
    const masterKey = b64Range(0x60, 0x7f);
    const box = await cryptoAPI.encryptBox(masterKey, opsSixteenKek);
    const remote = {
      ...(await recoveryAttributes(masterKey)),
      kekSalt: salt,
      opsLimit: 16,
      memLimit: 256 * MiB,
      encryptedKey: box.encryptedData,
      keyDecryptionNonce: box.nonce,
      kekHash: '',
    };
    const { runs, api } = observed();
    const local = await api.makeInteractiveKeyAttributes('password', masterKey, remote);
    expect(runs).toEqual([expect.objectContaining({ opsLimit: 2, memLimit: 64 * MiB, ok: true })]);
    expect({ ...local, kekSalt: '', encryptedKey: '', keyDecryptionNonce: '' }).toEqual({
      ...remote,
      opsLimit: 2,
      memLimit: 64 * MiB,
      kekSalt: '',
      encryptedKey: '',
      keyDecryptionNonce: '',
    });
    expect(local.kekSalt).not.toBe(remote.kekSalt);
    expect(fromB64(local.kekSalt)).toHaveLength(16);
    const kek = await api.deriveKEK('password', local);
    expect(await api.decryptMasterKey(kek, local)).toBe(masterKey);
  });

  test('recovery fields: absent or empty ones fail as DecryptionError; new ones round trip', async () => {
    const masterKey = b64Range(0x60, 0x7f);
    const withoutRecovery = { ...(await recoveryAttributes(masterKey)), masterKeyEncryptedWithRecoveryKey: '' };
    await expect(cryptoAPI.masterKeyFromRecoveryKey(b64Range(0, 31), withoutRecovery)).rejects.toBeInstanceOf(
      DecryptionError,
    );
    const nullRecovery = { ...withoutRecovery, recoveryKeyEncryptedWithMasterKey: null };
    await expect(cryptoAPI.recoveryKeyFromMasterKey(masterKey, nullRecovery)).rejects.toBeInstanceOf(DecryptionError);
    const fields = await cryptoAPI.generateRecoveryKeyAttributes(masterKey);
    expect(fromB64(fields.masterKeyEncryptedWithRecoveryKey)).toHaveLength(48);
    expect(fromB64(fields.recoveryKeyDecryptionNonce)).toHaveLength(24);
    const attrs = { ...withoutRecovery, ...fields };
    expect(await cryptoAPI.masterKeyFromRecoveryKey(fields.recoveryKey, attrs)).toBe(masterKey);
    expect(await cryptoAPI.recoveryKeyFromMasterKey(masterKey, attrs)).toBe(fields.recoveryKey);
  });
});

/** Attributes around `masterKey` whose keypair is the sealed-box vector's (seed 0xa0..0xbf). */
async function recoveryAttributes(masterKey: string): Promise<KeyAttributesLike> {
  const pair = await keyPairFromSeedB64(range(0xa0, 0xbf));
  const secret = await cryptoAPI.encryptBox(pair.secretKey, masterKey);
  return {
    kekSalt: salt,
    opsLimit: 2,
    memLimit: 64 * MiB,
    encryptedKey: '',
    keyDecryptionNonce: '',
    publicKey: pair.publicKey,
    encryptedSecretKey: secret.encryptedData,
    secretKeyDecryptionNonce: secret.nonce,
  };
}

describe('openToken', () => {
  test('the sealed token vector opens to the padded b64url token', async () => {
    const masterKey = b64Range(0x60, 0x7f);
    const attrs = await recoveryAttributes(masterKey);
    const encryptedToken =
      'QykwssEop2y0vvWQxD8TFw3yzeNfMIqECnUvdfCAyAVpr33Sy5qGqvvRJ7u6t9LhSYyMl2tF2yuqt3BisLCsuLgGEUp5knoIjnIKdTpAP/k=';
    expect(await cryptoAPI.openToken(encryptedToken, attrs, masterKey)).toBe(
      'wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t8=',
    );
    await expect(cryptoAPI.openToken(encryptedToken, attrs, b64Range(0, 31))).rejects.toBeInstanceOf(DecryptionError);
  });
});

describe('SRP', () => {
  const kek = b64Range(0x00, 0x1f); // its login subkey is the vector identity's
  const { identity, verifier } = srpVector;
  const start = (secretA?: string) =>
    cryptoAPI.srpClientStart({ srpUserID: identity.srpUserID, srpSalt: identity.srpSalt, kek }, secretA);

  test('setup attributes from a KEK carry its login subkey and a matching verifier', async () => {
    const setup = await cryptoAPI.generateSrpSetupAttributes(kek);
    expect(setup.loginSubKey).toBe(identity.loginSubKey);
    expect(computeSrpVerifierB64(setup)).toBe(setup.srpVerifier);
    expect(computeSrpVerifierB64(identity)).toBe(verifier);
  });

  test('A, M1 and M2 of the vector with a = 0x40..0x5f; the handle is freed after verify', async () => {
    const before = openSrpHandleCount();
    const { handle, srpA } = await start(b64Range(0x40, 0x5f));
    expect(srpA.startsWith('daODKhkN6GaC0s3+Usg+KEwB')).toBe(true);
    expect(openSrpHandleCount()).toBe(before + 1);
    const server = await createSrpServerB64(verifier, range(0x80, 0x9f));
    const srpM1 = await cryptoAPI.srpClientProof(handle, server.srpB);
    expect(srpM1).toBe('Nl0AQ5gcMSlAGGFwvpjaaqAkDfVEeJq/KIsKUAldcxI=');
    expect(verifySrpClientProofB64({ verifier, serverSecret: server.serverSecret, srpA, srpM1 })).toBe(
      'wAv7BJldAm5LIgwHFXhdSr6xixAteUeudbB5iIhYc64=',
    );
    expect(await cryptoAPI.srpClientVerify(handle, 'wAv7BJldAm5LIgwHFXhdSr6xixAteUeudbB5iIhYc64=')).toBe(true);
    expect(openSrpHandleCount()).toBe(before);
    await expect(cryptoAPI.srpClientVerify(handle, srpM1)).rejects.toBeInstanceOf(SrpSessionError);
  });

  test('starting from the login subkey instead of the KEK gives the same exchange', async () => {
    const fromSubKey = await cryptoAPI.srpClientStart(
      { srpUserID: identity.srpUserID, srpSalt: identity.srpSalt, loginSubKey: identity.loginSubKey },
      b64Range(0x40, 0x5f),
    );
    const fromKek = await start(b64Range(0x40, 0x5f));
    expect(fromSubKey.srpA).toBe(fromKek.srpA);
    const server = await createSrpServerB64(verifier, range(0x80, 0x9f));
    expect(await cryptoAPI.srpClientProof(fromSubKey.handle, server.srpB)).toBe(
      'Nl0AQ5gcMSlAGGFwvpjaaqAkDfVEeJq/KIsKUAldcxI=',
    );
    expect(await cryptoAPI.srpClientVerify(fromSubKey.handle, 'wAv7BJldAm5LIgwHFXhdSr6xixAteUeudbB5iIhYc64=')).toBe(
      true,
    );
    expect(await cryptoAPI.srpClientVerify(fromKek.handle, 'wAv7BJldAm5LIgwHFXhdSr6xixAteUeudbB5iIhYc64=')).toBe(false);
  });

  test('the secret can wait until the proof (A goes out while the KEK is derived): the same exchange', async () => {
    const { handle, srpA } = await cryptoAPI.srpClientStart(
      { srpUserID: identity.srpUserID, srpSalt: identity.srpSalt },
      b64Range(0x40, 0x5f),
    );
    expect(srpA).toBe((await start(b64Range(0x40, 0x5f))).srpA);
    const server = await createSrpServerB64(verifier, range(0x80, 0x9f));
    expect(await cryptoAPI.srpClientProof(handle, server.srpB, { kek })).toBe(
      'Nl0AQ5gcMSlAGGFwvpjaaqAkDfVEeJq/KIsKUAldcxI=',
    );
    expect(await cryptoAPI.srpClientVerify(handle, 'wAv7BJldAm5LIgwHFXhdSr6xixAteUeudbB5iIhYc64=')).toBe(true);
  });

  test('a proof with no secret at the start nor at the proof throws SrpError and frees the handle', async () => {
    const { handle } = await cryptoAPI.srpClientStart({ srpUserID: identity.srpUserID, srpSalt: identity.srpSalt });
    const server = await createSrpServerB64(verifier);
    await expect(cryptoAPI.srpClientProof(handle, server.srpB)).rejects.toBeInstanceOf(SrpError);
    await expect(cryptoAPI.srpClientVerify(handle, toB64(new Uint8Array(32)))).rejects.toBeInstanceOf(SrpSessionError);
  });

  test('a random a logs in; a wrong M2 is false and frees the handle', async () => {
    const { handle, srpA } = await start();
    const server = await createSrpServerB64(verifier);
    const srpM1 = await cryptoAPI.srpClientProof(handle, server.srpB);
    const srpM2 = verifySrpClientProofB64({ verifier, serverSecret: server.serverSecret, srpA, srpM1 });
    expect(srpM2).not.toBeNull();
    const other = await start();
    await cryptoAPI.srpClientProof(other.handle, server.srpB);
    expect(await cryptoAPI.srpClientVerify(other.handle, srpM2!)).toBe(false);
    await expect(cryptoAPI.srpClientProof(other.handle, server.srpB)).rejects.toBeInstanceOf(SrpSessionError);
    expect(await cryptoAPI.srpClientVerify(handle, srpM2!)).toBe(true);
  });

  test('an invalid B throws SrpError and frees the handle', async () => {
    const { handle } = await start();
    await expect(cryptoAPI.srpClientProof(handle, toB64(new Uint8Array(512)))).rejects.toBeInstanceOf(SrpError);
    await expect(cryptoAPI.srpClientVerify(handle, toB64(new Uint8Array(32)))).rejects.toBeInstanceOf(SrpSessionError);
  });

  test('a handle expires after SRP_HANDLE_TTL_MS', async () => {
    jest.useFakeTimers();
    try {
      const { handle } = await start();
      jest.advanceTimersByTime(SRP_HANDLE_TTL_MS - 1);
      const server = await createSrpServerB64(verifier);
      await cryptoAPI.srpClientProof(handle, server.srpB);
      jest.advanceTimersByTime(1);
      await expect(cryptoAPI.srpClientVerify(handle, toB64(new Uint8Array(32)))).rejects.toBeInstanceOf(
        SrpSessionError,
      );
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('two-factor secret, Box and key stash', () => {
  test('the 2FA secret round trip under the recovery key (40-byte ciphertext)', async () => {
    const recoveryKey = b64Range(0, 31);
    const box = await cryptoAPI.encryptTwoFactorSecret('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', recoveryKey);
    expect(fromB64(box.encryptedData)).toHaveLength(40);
    expect(await cryptoAPI.decryptTwoFactorSecret(box.encryptedData, box.nonce, recoveryKey)).toBe(
      'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    );
    await expect(
      cryptoAPI.decryptTwoFactorSecret(box.encryptedData, box.nonce, b64Range(1, 32)),
    ).rejects.toBeInstanceOf(DecryptionError);
  });

  test('decryptBox opens the Box vector; encryptBox round trips', async () => {
    expect(
      await cryptoAPI.decryptBox('pb43rAPtwaoZ2eY780yZ4DuRTCo=', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYX', b64Range(0, 31)),
    ).toBe(toB64(utf8Bytes('ente')));
    const box = await cryptoAPI.encryptBox(toB64(utf8Bytes('ente')), b64Range(0, 31));
    expect(fromB64(box.nonce)).toHaveLength(24);
    expect(await cryptoAPI.decryptBox(box.encryptedData, box.nonce, b64Range(0, 31))).toBe('ZW50ZQ==');
  });

  test('stashKey wraps under a fresh key; unstashKey gets it back', async () => {
    const key = await cryptoAPI.generateKey();
    expect(fromB64(key)).toHaveLength(32);
    const first = await cryptoAPI.stashKey(key);
    const second = await cryptoAPI.stashKey(key);
    expect(first.key).not.toBe(second.key);
    expect(first.encryptedData).not.toContain(key);
    expect(await cryptoAPI.unstashKey(first)).toBe(key);
    await expect(cryptoAPI.unstashKey({ ...first, key: second.key })).rejects.toBeInstanceOf(DecryptionError);
  });
});

describe('recovery key words', () => {
  test('the BIP-39 vectors', async () => {
    expect(await cryptoAPI.recoveryKeyToWords(toB64(new Uint8Array(32)))).toBe(`${'abandon '.repeat(23)}art`);
    const words =
      'abandon amount liar amount expire adjust cage candy arch gather drum bullet absurd math era live bid rhythm alien crouch range attend journey unaware';
    expect(await cryptoAPI.recoveryKeyToWords(b64Range(0, 31))).toBe(words);
    expect(await cryptoAPI.recoveryKeyFromInput(words)).toBe(b64Range(0, 31));
  });

  test('random keys round trip; input is trimmed, collapsed and lower-cased', async () => {
    for (let i = 0; i < 20; i++) {
      const key = await cryptoAPI.generateKey();
      const words = await cryptoAPI.recoveryKeyToWords(key);
      expect(words.split(' ')).toHaveLength(24);
      const messy = `\n  ${words.toUpperCase().split(' ').join(' \t ')}  \n`;
      expect(await cryptoAPI.recoveryKeyFromInput(messy)).toBe(key);
    }
  });

  test('64 hex characters (any case) are the legacy form', async () => {
    const hex = Array.from(range(0, 31), (byte) => byte.toString(16).padStart(2, '0')).join('');
    expect(await cryptoAPI.recoveryKeyFromInput(hex)).toBe(b64Range(0, 31));
    expect(await cryptoAPI.recoveryKeyFromInput(`  ${hex.toUpperCase()} `)).toBe(b64Range(0, 31));
  });

  const refused = async (text: string) => {
    const error = await cryptoAPI.recoveryKeyFromInput(text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecoveryKeyError);
    return error as RecoveryKeyError;
  };

  test('reasons: empty, invalidHex, wordCount, unknownWord, checksum', async () => {
    expect((await refused('')).reason).toBe('empty');
    expect((await refused(' \n\t ')).reason).toBe('empty');
    expect((await refused('0123')).reason).toBe('invalidHex');
    expect((await refused('g'.repeat(64))).reason).toBe('invalidHex');
    expect((await refused('0'.repeat(66))).reason).toBe('invalidHex');
    expect((await refused('abandon')).reason).toBe('invalidHex');
    const twentyThree = await refused(`${'abandon '.repeat(22)}art`);
    expect(twentyThree).toMatchObject({ reason: 'wordCount', wordCount: 23 });
    expect(await refused(`${'abandon '.repeat(24)}art`)).toMatchObject({ reason: 'wordCount', wordCount: 25 });
    expect(await refused(`${'abandon '.repeat(22)}abandonn art`)).toMatchObject({
      reason: 'unknownWord',
      word: 'abandonn',
    });
    expect(await refused(`${'abandon '.repeat(23)}Zebra,`)).toMatchObject({ reason: 'unknownWord', word: 'zebra,' });
    expect((await refused(`${'abandon '.repeat(23)}abandon`)).reason).toBe('checksum');
    expect((await refused(`${'abandon '.repeat(23)}zoo`)).reason).toBe('checksum');
  });
});

describe('Blob texts (authenticator entities, share links)', () => {
  const authKey = b64Range(0x20, 0x3f);
  const vector = {
    header: 'wvnxrd8hPJ6Do15ziGhAuOz+uIGlDwf+',
    encryptedData:
      'dZWQ5+u8cgkWlHnDQV7ySUfSEiFyIGQMD23gOiE5RhJ88LjIkZ3UwHwdvcaTX0btbG1ujGi1Ntrevh/75C+GuDm5OYAbkSCUKbmRVI89lO+FBo0FQnf0AcZsbVJc8MZFNk+Ndw4loXOXvm3qbBouKt2aTH7XLYvPtZ/IBEXT4XK59xeZWIjNLBPFXZgbC2dqUzIthUc81zFR3hCYXAe7ml94HbkezPQ6M1Meti7SIi1QG4h80kzkuhCgMQ==',
  };
  const vectorText =
    '"otpauth://totp/ACME:user@example.org?algorithm=SHA1&digits=6&issuer=ACME&period=30&secret=JBSWY3DPEHPK3PXP&codeDisplay=%7B%22pinned%22%3Atrue%2C%22trashed%22%3Afalse%7D"';
  /** The same Blob with one bit of its ciphertext flipped. */
  const tampered = (blob: { encryptedData: string; header: string }) => {
    const bytes = fromB64(blob.encryptedData);
    bytes[3] = bytes[3]! ^ 1;
    return { ...blob, encryptedData: toB64(bytes) };
  };

  test('the entity vector decrypts to its JSON string literal, quotes included', async () => {
    expect(await cryptoAPI.decryptBlobText(vector, authKey)).toBe(vectorText);
  });

  test('round trip of non-ASCII text; what plain libsodium reads is its UTF-8', async () => {
    const text = JSON.stringify('otpauth://totp/Bänk:名前?secret=JBSWY3DPEHPK3PXP');
    const blob = await cryptoAPI.encryptBlobText(text, authKey);
    expect(fromB64(blob.header)).toHaveLength(24);
    expect(await cryptoAPI.decryptBlobText(blob, authKey)).toBe(text);
    await plainSodium.ready;
    const state = plainSodium.crypto_secretstream_xchacha20poly1305_init_pull(fromB64(blob.header), fromB64(authKey));
    const pulled = plainSodium.crypto_secretstream_xchacha20poly1305_pull(state, fromB64(blob.encryptedData), null);
    expect(pulled && pulled.tag).toBe(plainSodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL);
    expect(pulled && new TextDecoder().decode(pulled.message)).toBe(text);
  });

  test('decryptBlobText throws DecryptionError for a tampered Blob, a wrong key and bytes that are not UTF-8', async () => {
    await expect(cryptoAPI.decryptBlobText(tampered(vector), authKey)).rejects.toBeInstanceOf(DecryptionError);
    await expect(cryptoAPI.decryptBlobText(vector, b64Range(0, 31))).rejects.toBeInstanceOf(DecryptionError);
    const notText = await encryptBlobB64(new Uint8Array([0x22, 0xff, 0x22]), authKey);
    await expect(cryptoAPI.decryptBlobText(notText, authKey)).rejects.toBeInstanceOf(DecryptionError);
  });

  test('decryptBlobTexts answers in order, with null for each Blob that fails, never throwing', async () => {
    const other = await cryptoAPI.encryptBlobText('"second"', authKey);
    const notText = await encryptBlobB64(new Uint8Array([0xc3]), authKey);
    const texts = await cryptoAPI.decryptBlobTexts(
      [
        vector,
        tampered(vector),
        other,
        notText,
        { encryptedData: 'not base64!', header: vector.header },
        { encryptedData: vector.encryptedData, header: '' },
        null as unknown as { encryptedData: string; header: string },
      ],
      authKey,
    );
    expect(texts).toEqual([vectorText, null, '"second"', null, null, null, null]);
    expect(await cryptoAPI.decryptBlobTexts([], authKey)).toEqual([]);
  });

  test('through cryptoWorker(): a batch of 2,000 in one call', async () => {
    const crypto = await cryptoWorker();
    const texts = Array.from({ length: 2000 }, (_, i) => JSON.stringify(`otpauth://totp/I${String(i)}?secret=AA`));
    const blobs = await Promise.all(texts.map((text) => crypto.encryptBlobText(text, authKey)));
    expect(await crypto.decryptBlobTexts(blobs, authKey)).toEqual(texts);
    await expect(crypto.decryptBlobText(tampered(vector), authKey)).rejects.toBeInstanceOf(DecryptionError);
  });
});

describe('cryptoWorker() outside a browser', () => {
  test('runs in this process, records one ente:argon2id measure per run and keeps error classes', async () => {
    performance.clearMeasures('ente:argon2id');
    const crypto = await cryptoWorker();
    expect(await cryptoWorker()).toBe(crypto);
    expect(await crypto.deriveKEK('password', { kekSalt: salt, opsLimit: 2, memLimit: 64 * MiB })).toBe(
      'P94AI+nJBlLtrBR4SXHkJY4IR1G84AtZZdmVxjmxXP8=',
    );
    const measures = performance.getEntriesByName('ente:argon2id', 'measure') as PerformanceMeasure[];
    expect(measures).toHaveLength(1);
    expect(measures[0]!.detail).toEqual({ method: 'deriveKEK', opsLimit: 2, memLimit: 64 * MiB, ok: true });
    expect(measures[0]!.duration).toBeGreaterThan(0);
    await expect(crypto.recoveryKeyFromInput('abandon abandon')).rejects.toMatchObject({
      name: 'RecoveryKeyError',
      reason: 'wordCount',
    });
    await expect(crypto.deriveKEK('password', { kekSalt: salt, opsLimit: 0, memLimit: 1 })).rejects.toBeInstanceOf(
      KdfParamsError,
    );
    expect(performance.getEntriesByName('ente:argon2id', 'measure')).toHaveLength(1);
  });
});
