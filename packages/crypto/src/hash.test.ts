// The upload's hashes (hash.ts) against Node's own BLAKE2b-512 and MD5, whole and fed in pieces.
import { createHash, randomBytes } from 'node:crypto';

import { describe, expect, test } from '@jest/globals';

import { blake2b512B64, createBlake2b512Hash, createMd5Hash, md5B64 } from './hash.ts';

const nodeHash = (algorithm: 'blake2b512' | 'md5', data: Uint8Array) =>
  createHash(algorithm).update(data).digest('base64');

describe.each([
  ['blake2b512', createBlake2b512Hash, blake2b512B64],
  ['md5', createMd5Hash, md5B64],
] as const)('%s', (algorithm, create, whole) => {
  test.each([0, 1, 127, 128, 129, 4 * 1024 * 1024 + 1])('%i bytes, whole and in pieces, equal Node', async (size) => {
    const data = randomBytes(size);
    const expected = nodeHash(algorithm, data);
    expect(await whole(data)).toBe(expected);
    const hash = await create();
    for (let offset = 0; offset < data.length; offset += 100_003) hash.update(data.subarray(offset, offset + 100_003));
    expect(hash.digestB64()).toBe(expected);
  });

  // RFC 1321 and RFC 7693 (appendix A) give these for "abc".
  test('a known value', async () => {
    const text = new TextEncoder().encode('abc');
    const known = {
      md5: 'kAFQmDzST7DWlj99KOF/cg==',
      blake2b512: 'uoClP5gcTQ1qJ5e2nxL26UwhLxRoWsS3SxK7b9v/otF9h8U5Kqt5LcJS1d5FM8yVGNOKqNvxklq5I4bt1ACZIw==',
    }[algorithm];
    expect(await whole(text)).toBe(known);
  });

  test('ends once', async () => {
    const hash = await create();
    hash.update(new Uint8Array(3));
    hash.digestB64();
    expect(() => hash.update(new Uint8Array(1))).toThrow('the hash already ended');
    expect(() => hash.digestB64()).toThrow('the hash already ended');
  });

  test('two hashes at once do not mix', async () => {
    const a = await create();
    const b = await create();
    const x = randomBytes(1000);
    const y = randomBytes(1000);
    a.update(x);
    b.update(y);
    a.update(y);
    b.update(x);
    expect(a.digestB64()).toBe(nodeHash(algorithm, Buffer.concat([x, y])));
    expect(b.digestB64()).toBe(nodeHash(algorithm, Buffer.concat([y, x])));
  });
});
