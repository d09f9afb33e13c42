// The vectors of docs/protocol.md#test-vectors for every primitive this package wraps, plus round trips and tamper checks.
import { createHash } from 'node:crypto';

import { describe, expect, test } from '@jest/globals';

import {
  computeSrpVerifierB64,
  createSrpClient,
  createSrpServerB64,
  decryptBlobBytes,
  decryptBoxB64,
  decryptBoxBytes,
  DecryptionError,
  deriveKeyB64,
  deriveLoginSubKeyB64,
  encryptBlobB64,
  encryptBoxB64,
  encryptBoxWithNonceB64,
  fromB64,
  fromB64Url,
  generateKeyAttributes,
  generateSrpSetupAttributes,
  isValidSrpPublicValue,
  keyPairFromSeedB64,
  openSealedBoxBytes,
  sealBoxB64,
  SrpError,
  toB64,
  toB64Url,
  utf8Bytes,
  utf8String,
  verifySrpClientProofB64,
} from './index.ts';
import { srpVector } from './testing/vectors.ts';

const range = (from: number, to: number) => Uint8Array.from({ length: to - from + 1 }, (_, i) => from + i);
const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const opsSixteenKek = 'o2F5q2WE3xx6dyxyBM0KOKyQZ8XVPhOOemaTDzMuLvg=';

describe('Argon2id (crypto_pwhash)', () => {
  test('"password", salt 0x00..0x0f, ops 2, 64 MiB', async () => {
    expect(await deriveKeyB64('password', range(0x00, 0x0f), 2, 67108864)).toBe(
      'P94AI+nJBlLtrBR4SXHkJY4IR1G84AtZZdmVxjmxXP8=',
    );
  });
  test('the signup parameters (ops 16, 256 MiB): the KEK the other vectors build on', async () => {
    expect(await deriveKeyB64('password', range(0x00, 0x0f), 16, 268435456)).toBe(opsSixteenKek);
  }, 60_000);
  test('a non-ASCII password is hashed as UTF-8', async () => {
    expect(await deriveKeyB64('pässwörd 🔑', 'AAECAwQFBgcICQoLDA0ODw==', 2, 67108864)).toBe(
      'R6yIGSYJ+LP0al/Sf/7wrbxNiWyZ0wl9Cmw+0igfPGA=',
    );
  });
});

describe('login subkey', () => {
  test('KEK 0x00..0x1f', async () => {
    expect(await deriveLoginSubKeyB64(range(0x00, 0x1f))).toBe('aXC100RC/RF4ioO0tX4ecg==');
  });
  test('KEK = the ops-16 Argon2 output', async () => {
    expect(await deriveLoginSubKeyB64(opsSixteenKek)).toBe('6cuL7F8/gNSGcXDTp2ZXRg==');
  });
});

describe('SRP', () => {
  const { identity, verifier } = srpVector;

  test('verifier of the vector identity', () => {
    expect(computeSrpVerifierB64(identity)).toBe(verifier);
  });

  test('verifier for the ops-16 login subkey', () => {
    const other = computeSrpVerifierB64({ ...identity, loginSubKey: '6cuL7F8/gNSGcXDTp2ZXRg==' });
    expect(sha256Hex(fromB64(other))).toBe('c8465cc52cf72601b71104bd81dbfef94b9f6a079483567b068254dbbcd16c17');
  });

  test('A, B, M1 and M2 with a = 0x40..0x5f and b = 0x80..0x9f', async () => {
    const client = await createSrpClient(identity, range(0x40, 0x5f));
    const server = await createSrpServerB64(verifier, range(0x80, 0x9f));
    expect(sha256Hex(fromB64(client.srpA))).toBe('93e2ea63cc21d7c498b8d80e67a590ff065dbc70347173c7a0cdd8917787bcfd');
    expect(client.srpA.startsWith('daODKhkN6GaC0s3+Usg+KEwB')).toBe(true);
    expect(sha256Hex(fromB64(server.srpB))).toBe('bf4c0105eb88d8f640387ce8e116dc92f39ae57cb41661371e4ec82b5797b01d');
    expect(server.srpB.startsWith('CJ3HVaWz/vJZPHJTxj+yzlcj')).toBe(true);
    const srpM1 = client.computeM1B64(server.srpB);
    expect(srpM1).toBe('Nl0AQ5gcMSlAGGFwvpjaaqAkDfVEeJq/KIsKUAldcxI=');
    const srpM2 = verifySrpClientProofB64({ verifier, serverSecret: server.serverSecret, srpA: client.srpA, srpM1 });
    expect(srpM2).toBe('wAv7BJldAm5LIgwHFXhdSr6xixAteUeudbB5iIhYc64=');
    expect(client.verifyM2(srpM2!)).toBe(true);
    expect(client.verifyM2(toB64(new Uint8Array(32)))).toBe(false);
  });

  test('a wrong password gives a wrong M1, which the server rejects', async () => {
    const client = await createSrpClient({ ...identity, loginSubKey: toB64(new Uint8Array(16)) });
    const server = await createSrpServerB64(verifier);
    const srpM1 = client.computeM1B64(server.srpB);
    expect(
      verifySrpClientProofB64({ verifier, serverSecret: server.serverSecret, srpA: client.srpA, srpM1 }),
    ).toBeNull();
  });

  test('random setup attributes log in', async () => {
    const setup = await generateSrpSetupAttributes(range(0, 31));
    expect(setup.srpUserID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fromB64(setup.srpSalt)).toHaveLength(16);
    expect(fromB64(setup.srpVerifier)).toHaveLength(512);
    expect(setup.loginSubKey).toBe('aXC100RC/RF4ioO0tX4ecg==');
    const client = await createSrpClient(setup);
    const server = await createSrpServerB64(setup.srpVerifier);
    const srpM1 = client.computeM1B64(server.srpB);
    const srpM2 = verifySrpClientProofB64({
      verifier: setup.srpVerifier,
      serverSecret: server.serverSecret,
      srpA: client.srpA,
      srpM1,
    });
    expect(srpM2 && client.verifyM2(srpM2)).toBe(true);
  });

  test('A and B outside 1..N-1 or of the wrong length are refused', async () => {
    const zero = new Uint8Array(512);
    const allOnes = new Uint8Array(512).fill(0xff);
    const one = new Uint8Array(512);
    one[511] = 1;
    expect(isValidSrpPublicValue(zero)).toBe(false);
    expect(isValidSrpPublicValue(allOnes)).toBe(false);
    expect(isValidSrpPublicValue(one)).toBe(true);
    expect(isValidSrpPublicValue(new Uint8Array(511).fill(1))).toBe(false);
    const server = await createSrpServerB64(verifier);
    expect(() =>
      verifySrpClientProofB64({ verifier, serverSecret: server.serverSecret, srpA: zero, srpM1: new Uint8Array(32) }),
    ).toThrow(SrpError);
    const client = await createSrpClient(identity);
    expect(() => client.computeM1B64(toB64(zero))).toThrow(SrpError);
  });
});

describe('Box (secretbox)', () => {
  test('"ente" under key 0x00..0x1f, nonce 0x00..0x17', async () => {
    const box = await encryptBoxWithNonceB64(utf8Bytes('ente'), range(0, 31), range(0, 23));
    expect(box).toEqual({ encryptedData: 'pb43rAPtwaoZ2eY780yZ4DuRTCo=', nonce: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYX' });
    expect(utf8String(await decryptBoxBytes(box, range(0, 31)))).toBe('ente');
  });
  test('the master key under the ops-16 KEK', async () => {
    const box = await encryptBoxWithNonceB64(
      'YGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn8=',
      opsSixteenKek,
      'MDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZH',
    );
    expect(box.encryptedData).toBe('gajmmWtbrzdLUVCsqGg+aeKsDWB/cffDBws9XSnrd2ZlMOfmWrX7m+5AYLPyPN4Y');
    expect(await decryptBoxB64(box, opsSixteenKek)).toBe('YGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn8=');
  });
  test('random nonces; a wrong key or a flipped bit fails', async () => {
    const key = range(0, 31);
    const first = await encryptBoxB64(utf8Bytes('x'), key);
    const second = await encryptBoxB64(utf8Bytes('x'), key);
    expect(first.nonce).not.toBe(second.nonce);
    await expect(decryptBoxBytes(first, range(1, 32))).rejects.toThrow(DecryptionError);
    const tampered = fromB64(first.encryptedData);
    tampered[0]! ^= 1;
    await expect(decryptBoxBytes({ ...first, encryptedData: toB64(tampered) }, key)).rejects.toThrow(DecryptionError);
  });
});

describe('sealed box', () => {
  test('the token vector opens to 0xc0..0xdf', async () => {
    const pair = await keyPairFromSeedB64(range(0xa0, 0xbf));
    expect(pair).toEqual({
      publicKey: 'Dr+YCoYN5Ryi4IBvQfUnZiTuGuTOI5/LctGwKNt+OR4=',
      secretKey: 'LVBBlFxNpYVUqH2n9S/RWxZ9IPEFBb/+brc7wKf+iSI=',
    });
    const opened = await openSealedBoxBytes(
      'QykwssEop2y0vvWQxD8TFw3yzeNfMIqECnUvdfCAyAVpr33Sy5qGqvvRJ7u6t9LhSYyMl2tF2yuqt3BisLCsuLgGEUp5knoIjnIKdTpAP/k=',
      pair.publicKey,
      pair.secretKey,
    );
    expect(opened).toEqual(range(0xc0, 0xdf));
    expect(toB64Url(opened)).toBe('wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t8=');
  });
  test('seal then open; 80 bytes for a 32-byte token', async () => {
    const pair = await keyPairFromSeedB64(range(0, 31));
    const sealed = await sealBoxB64(range(0xc0, 0xdf), pair.publicKey);
    expect(fromB64(sealed)).toHaveLength(80);
    expect(await openSealedBoxBytes(sealed, pair.publicKey, pair.secretKey)).toEqual(range(0xc0, 0xdf));
    const stranger = await keyPairFromSeedB64(range(1, 32));
    await expect(openSealedBoxBytes(sealed, stranger.publicKey, stranger.secretKey)).rejects.toThrow(DecryptionError);
  });
});

describe('Blob (secretstream, one message)', () => {
  const authKey = 'ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=';
  test('the authenticator entity vector', async () => {
    const plaintext = await decryptBlobBytes(
      {
        header: 'wvnxrd8hPJ6Do15ziGhAuOz+uIGlDwf+',
        encryptedData:
          'dZWQ5+u8cgkWlHnDQV7ySUfSEiFyIGQMD23gOiE5RhJ88LjIkZ3UwHwdvcaTX0btbG1ujGi1Ntrevh/75C+GuDm5OYAbkSCUKbmRVI89lO+FBo0FQnf0AcZsbVJc8MZFNk+Ndw4loXOXvm3qbBouKt2aTH7XLYvPtZ/IBEXT4XK59xeZWIjNLBPFXZgbC2dqUzIthUc81zFR3hCYXAe7ml94HbkezPQ6M1Meti7SIi1QG4h80kzkuhCgMQ==',
      },
      authKey,
    );
    expect(JSON.parse(utf8String(plaintext))).toBe(
      'otpauth://totp/ACME:user@example.org?algorithm=SHA1&digits=6&issuer=ACME&period=30&secret=JBSWY3DPEHPK3PXP&codeDisplay=%7B%22pinned%22%3Atrue%2C%22trashed%22%3Afalse%7D',
    );
  });
  test('round trip adds 17 bytes; a wrong key fails', async () => {
    const blob = await encryptBlobB64(utf8Bytes('"otpauth://totp/x?secret=AA"'), authKey);
    expect(fromB64(blob.header)).toHaveLength(24);
    expect(fromB64(blob.encryptedData)).toHaveLength(28 + 17);
    expect(utf8String(await decryptBlobBytes(blob, authKey))).toBe('"otpauth://totp/x?secret=AA"');
    await expect(decryptBlobBytes(blob, range(0, 31))).rejects.toThrow(DecryptionError);
  });
});

describe('encodings', () => {
  test('the 2FA secret base32-as-base64 round trip', () => {
    const bytes = fromB64('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(bytes).toHaveLength(24);
    expect(toB64(bytes)).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
  });
  test('strict decoding', () => {
    expect(() => fromB64('abc')).toThrow('invalid base64');
    expect(() => fromB64('ab-_')).toThrow('invalid base64');
    expect(fromB64Url('-_8=')).toEqual(new Uint8Array([0xfb, 0xff]));
    expect(() => fromB64Url('+/8=')).toThrow('invalid base64url');
  });
});

describe('key attributes at sign-up', () => {
  test('every wrapped key opens with the key that should open it', async () => {
    const generated = await generateKeyAttributes('password', () =>
      Promise.resolve({
        key: opsSixteenKek,
        salt: 'AAECAwQFBgcICQoLDA0ODw==',
        opsLimit: 16,
        memLimit: 268435456,
      }),
    );
    const attrs = generated.keyAttributes;
    expect(attrs.opsLimit * attrs.memLimit).toBe(4294967296);
    const masterKey = await decryptBoxB64(
      { encryptedData: attrs.encryptedKey, nonce: attrs.keyDecryptionNonce },
      opsSixteenKek,
    );
    expect(masterKey).toBe(generated.masterKey);
    const viaRecovery = await decryptBoxB64(
      { encryptedData: attrs.masterKeyEncryptedWithRecoveryKey, nonce: attrs.masterKeyDecryptionNonce },
      generated.recoveryKey,
    );
    expect(viaRecovery).toBe(masterKey);
    const recovery = await decryptBoxB64(
      { encryptedData: attrs.recoveryKeyEncryptedWithMasterKey, nonce: attrs.recoveryKeyDecryptionNonce },
      masterKey,
    );
    expect(recovery).toBe(generated.recoveryKey);
    const secretKey = await decryptBoxB64(
      { encryptedData: attrs.encryptedSecretKey, nonce: attrs.secretKeyDecryptionNonce },
      masterKey,
    );
    const sealed = await sealBoxB64(range(1, 32), attrs.publicKey);
    expect(await openSealedBoxBytes(sealed, attrs.publicKey, secretKey)).toEqual(range(1, 32));
    for (const nonce of [attrs.keyDecryptionNonce, attrs.secretKeyDecryptionNonce, attrs.masterKeyDecryptionNonce]) {
      expect(fromB64(nonce)).toHaveLength(24);
    }
    expect(fromB64(attrs.encryptedKey)).toHaveLength(48);
  });
});
