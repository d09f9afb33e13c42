// The worker boundary in Node: the real comlink `expose` of the worker's endpoint on one end of a
// MessageChannel and client.ts's `remoteOverComlink` on the other, so every value and error is
// structured-cloned as between a page and its worker.
import { MessageChannel, type MessagePort } from 'node:worker_threads';

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { expose, type Endpoint } from 'comlink';

import { reviveError, serializeError } from './boundary.ts';
import { remoteOverComlink, type CryptoRemote } from './client.ts';
import { toB64 } from './encoding.ts';
import { createCryptoEndpoint } from './endpoint.ts';
import {
  DecryptionError,
  InvalidEncodingError,
  KdfParamsError,
  RecoveryKeyError,
  SrpError,
  SrpSessionError,
} from './errors.ts';

const MiB = 1024 * 1024;
const salt = 'AAECAwQFBgcICQoLDA0ODw==';

let ports: MessagePort[] = [];
let crypto: CryptoRemote;

beforeAll(async () => {
  const channel = new MessageChannel();
  ports = [channel.port1, channel.port2];
  expose(createCryptoEndpoint(), channel.port1 as unknown as Endpoint);
  crypto = await remoteOverComlink(channel.port2 as unknown as Endpoint);
});

afterAll(() => {
  for (const port of ports) port.close();
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe('values cross the boundary', () => {
  test('deriveKEK gives the vector and one ente:argon2id measure on this side', async () => {
    performance.clearMeasures('ente:argon2id');
    expect(await crypto.deriveKEK('password', { kekSalt: salt, opsLimit: 2, memLimit: 64 * MiB })).toBe(
      'P94AI+nJBlLtrBR4SXHkJY4IR1G84AtZZdmVxjmxXP8=',
    );
    const measures = performance.getEntriesByName('ente:argon2id', 'measure') as PerformanceMeasure[];
    expect(measures.map((m) => m.detail as unknown)).toEqual([
      { method: 'deriveKEK', opsLimit: 2, memLimit: 64 * MiB, ok: true },
    ]);
  });

  test('objects and the SRP handle state (kept on the worker side)', async () => {
    const stash = await crypto.stashKey(toB64(new Uint8Array(32).fill(1)));
    expect(Object.keys(stash).sort()).toEqual(['encryptedData', 'key', 'nonce']);
    expect(await crypto.unstashKey(stash)).toBe(toB64(new Uint8Array(32).fill(1)));
    const { handle, srpA } = await crypto.srpClientStart({
      srpUserID: '00000000-0000-4000-8000-000000000000',
      srpSalt: 'EBESExQVFhcYGRobHB0eHw==',
      kek: toB64(Uint8Array.from({ length: 32 }, (_, i) => i)),
    });
    expect(typeof handle).toBe('string');
    expect(srpA).toHaveLength(684);
  });
});

describe('errors keep their class, name, message and reason', () => {
  test('RecoveryKeyError with reason, word and wordCount', async () => {
    const unknown = await rejection(crypto.recoveryKeyFromInput(`${'abandon '.repeat(23)}abandonn`));
    expect(unknown).toBeInstanceOf(RecoveryKeyError);
    expect(unknown).toMatchObject({ name: 'RecoveryKeyError', reason: 'unknownWord', word: 'abandonn' });
    expect(unknown.message).toContain('abandonn');
    const count = await rejection(crypto.recoveryKeyFromInput('abandon art'));
    expect(count).toMatchObject({ name: 'RecoveryKeyError', reason: 'wordCount', wordCount: 2 });
    for (const [text, reason] of [
      ['', 'empty'],
      ['abc', 'invalidHex'],
      [`${'abandon '.repeat(23)}abandon`, 'checksum'],
    ]) {
      expect(await rejection(crypto.recoveryKeyFromInput(text!))).toMatchObject({ name: 'RecoveryKeyError', reason });
    }
  });

  test('KdfParamsError with reason, before any Argon2id run', async () => {
    performance.clearMeasures('ente:argon2id');
    const error = await rejection(crypto.deriveKEK('password', { kekSalt: salt, opsLimit: 2, memLimit: 4 * 1024 }));
    expect(error).toBeInstanceOf(KdfParamsError);
    expect(error).toMatchObject({ name: 'KdfParamsError', reason: 'memLimit' });
    expect(performance.getEntriesByName('ente:argon2id')).toHaveLength(0);
  });

  test('DecryptionError, SrpError, SrpSessionError, InvalidEncodingError', async () => {
    const key = toB64(new Uint8Array(32));
    const box = await crypto.encryptBox(toB64(new Uint8Array([1, 2, 3])), key);
    const wrongKey = await rejection(
      crypto.decryptBox(box.encryptedData, box.nonce, toB64(new Uint8Array(32).fill(9))),
    );
    expect(wrongKey).toBeInstanceOf(DecryptionError);
    expect(wrongKey.name).toBe('DecryptionError');
    const { handle } = await crypto.srpClientStart({
      srpUserID: '00000000-0000-4000-8000-000000000000',
      srpSalt: 'EBESExQVFhcYGRobHB0eHw==',
      kek: key,
    });
    expect(await rejection(crypto.srpClientProof(handle, toB64(new Uint8Array(512))))).toBeInstanceOf(SrpError);
    expect(await rejection(crypto.srpClientVerify(handle, toB64(new Uint8Array(32))))).toBeInstanceOf(SrpSessionError);
    expect(await rejection(crypto.recoveryKeyToWords('not base64'))).toBeInstanceOf(InvalidEncodingError);
  });

  test('other errors keep name and message', async () => {
    const error = await rejection(crypto.recoveryKeyToWords(toB64(new Uint8Array(16))));
    expect(error).toMatchObject({ name: 'RangeError', message: 'a recovery key is 32 bytes' });
  });
});

describe('serializeError / reviveError', () => {
  test('a round trip through structured clone', () => {
    const original = new RecoveryKeyError('unknownWord', { word: 'zebra,', message: 'no' });
    const revived = reviveError(structuredClone(serializeError(original)));
    expect(revived).toBeInstanceOf(RecoveryKeyError);
    expect(revived).toMatchObject({ name: 'RecoveryKeyError', message: 'no', reason: 'unknownWord', word: 'zebra,' });
    expect(revived.stack).toBe(original.stack);
    const foreign = reviveError(
      structuredClone(serializeError(Object.assign(new Error('x'), { name: 'Odd', reason: 'r' }))),
    );
    expect(foreign).toMatchObject({ name: 'Odd', message: 'x', reason: 'r' });
    expect(reviveError(serializeError('plain text'))).toMatchObject({ name: 'Error', message: 'plain text' });
  });
});
