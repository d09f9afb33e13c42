// secretstream-pull.ts against libsodium itself: whatever libsodium's push writes (every tag, explicit rekeys, sizes
// around the 16-byte padding and the 64-byte blocks, several messages, a file's 4 MiB chunks) opens to the same bytes
// and tags, and whatever libsodium's pull refuses (tampering anywhere, truncation, reordering, a wrong key or header)
// is refused too.
import { randomBytes } from 'node:crypto';

import { beforeAll, describe, expect, test } from '@jest/globals';
import sodium from 'libsodium-wrappers-sumo';

import { DecryptionError } from './errors.ts';
import {
  SECRETSTREAM_ABYTES,
  SECRETSTREAM_TAG_FINAL,
  SECRETSTREAM_TAG_MESSAGE,
  SECRETSTREAM_TAG_PUSH,
  SECRETSTREAM_TAG_REKEY,
  secretstreamPuller,
} from './secretstream-pull.ts';

beforeAll(async () => {
  await sodium.ready;
});

type Pushed = {
  key: Uint8Array;
  header: Uint8Array;
  messages: { plaintext: Uint8Array; tag: number; c: Uint8Array }[];
};

/** Pushes each `[plaintext, tag]` with libsodium; `'rekey'` calls libsodium's explicit rekey (on both sides). */
function pushWithLibsodium(items: readonly ([Uint8Array, number] | 'rekey')[]): Pushed & { rekeysAfter: number[] } {
  const key = sodium.crypto_secretstream_xchacha20poly1305_keygen();
  const { state, header } = sodium.crypto_secretstream_xchacha20poly1305_init_push(key);
  const messages: Pushed['messages'] = [];
  const rekeysAfter: number[] = [];
  for (const item of items) {
    if (item === 'rekey') {
      sodium.crypto_secretstream_xchacha20poly1305_rekey(state);
      rekeysAfter.push(messages.length);
      continue;
    }
    const [plaintext, tag] = item;
    messages.push({
      plaintext,
      tag,
      c: sodium.crypto_secretstream_xchacha20poly1305_push(state, plaintext, null, tag),
    });
  }
  return { key, header, messages, rekeysAfter };
}

/** Pulls every message in order, each to the plaintext and tag libsodium pushed. */
function expectAllOpen(header: Uint8Array, key: Uint8Array, messages: Pushed['messages']): void {
  const puller = secretstreamPuller(header, key);
  for (const pushed of messages) {
    const pulled = puller.pull(pushed.c);
    expect(pulled.tag).toBe(pushed.tag);
    expect(Buffer.from(pulled.message).equals(pushed.plaintext)).toBe(true);
  }
}

const sizes = [0, 1, 15, 16, 17, 31, 32, 47, 48, 63, 64, 65, 100, 127, 128, 129, 1000, 4095, 4096, 65_537];

describe('secretstreamPuller', () => {
  test.each(sizes)('one FINAL message of %i bytes opens as libsodium pushed it', (size) => {
    const plaintext = randomBytes(size);
    const { key, header, messages } = pushWithLibsodium([[plaintext, SECRETSTREAM_TAG_FINAL]]);
    const pulled = secretstreamPuller(header, key).pull(messages[0]!.c);
    expect(pulled.tag).toBe(SECRETSTREAM_TAG_FINAL);
    expect(Buffer.from(pulled.message).equals(plaintext)).toBe(true);
  });

  test('many messages of every size and tag, in order', () => {
    const tags = [SECRETSTREAM_TAG_MESSAGE, SECRETSTREAM_TAG_PUSH, SECRETSTREAM_TAG_REKEY];
    const items: [Uint8Array, number][] = sizes.map((size, i) => [randomBytes(size), tags[i % 3]!]);
    items.push([randomBytes(33), SECRETSTREAM_TAG_FINAL]);
    const { key, header, messages } = pushWithLibsodium(items);
    expectAllOpen(header, key, messages);
  });

  test("libsodium's rekey by call (which Ente's streams never make) is not guessed: the next message is refused", () => {
    const { key, header, messages, rekeysAfter } = pushWithLibsodium([
      [randomBytes(20), SECRETSTREAM_TAG_MESSAGE],
      'rekey',
      [randomBytes(20), SECRETSTREAM_TAG_FINAL],
    ]);
    expect(rekeysAfter).toEqual([1]);
    const puller = secretstreamPuller(header, key);
    expect(puller.pull(messages[0]!.c).tag).toBe(SECRETSTREAM_TAG_MESSAGE);
    expect(() => puller.pull(messages[1]!.c)).toThrow(DecryptionError);
  });

  test('REKEY and FINAL tags rekey as libsodium does: messages after them open', () => {
    const items: [Uint8Array, number][] = [
      [randomBytes(10), SECRETSTREAM_TAG_REKEY],
      [randomBytes(70), SECRETSTREAM_TAG_MESSAGE],
      [randomBytes(5), SECRETSTREAM_TAG_REKEY],
      [randomBytes(5), SECRETSTREAM_TAG_REKEY],
      [randomBytes(1), SECRETSTREAM_TAG_FINAL],
      [randomBytes(64), SECRETSTREAM_TAG_PUSH],
      [randomBytes(0), SECRETSTREAM_TAG_FINAL],
    ];
    const { key, header, messages } = pushWithLibsodium(items);
    expectAllOpen(header, key, messages);
  });

  test("a file's 4 MiB chunks: MESSAGE, MESSAGE, FINAL", () => {
    const chunk = 4 * 1024 * 1024;
    const items: [Uint8Array, number][] = [
      [randomBytes(chunk), SECRETSTREAM_TAG_MESSAGE],
      [randomBytes(chunk), SECRETSTREAM_TAG_MESSAGE],
      [randomBytes(12_345), SECRETSTREAM_TAG_FINAL],
    ];
    const { key, header, messages } = pushWithLibsodium(items);
    for (const pushed of messages) expect(pushed.c.length).toBe(pushed.plaintext.length + SECRETSTREAM_ABYTES);
    expectAllOpen(header, key, messages);
  });

  test('libsodium opens nothing we refuse: every flipped bit, truncation and extension is refused by both', () => {
    const { key, header, messages } = pushWithLibsodium([[randomBytes(40), SECRETSTREAM_TAG_FINAL]]);
    const c = messages[0]!.c;
    const libsodiumOpens = (bytes: Uint8Array) => {
      try {
        const state = sodium.crypto_secretstream_xchacha20poly1305_init_pull(header, key);
        return sodium.crypto_secretstream_xchacha20poly1305_pull(state, bytes, null) !== false;
      } catch {
        return false;
      }
    };
    const broken: Uint8Array[] = [];
    for (let byte = 0; byte < c.length; byte++) {
      for (const bit of [0x01, 0x80]) {
        const copy = Uint8Array.from(c);
        copy[byte]! ^= bit;
        broken.push(copy);
      }
    }
    for (let length = 0; length < c.length; length++) broken.push(c.slice(0, length));
    broken.push(Uint8Array.from([...c, 0]));
    for (const bytes of broken) {
      expect(libsodiumOpens(bytes)).toBe(false);
      expect(() => secretstreamPuller(header, key).pull(bytes)).toThrow(DecryptionError);
    }
  });

  test('reordered or repeated messages, a wrong key or header are refused; a refused message leaves the state', () => {
    const { key, header, messages } = pushWithLibsodium([
      [randomBytes(20), SECRETSTREAM_TAG_MESSAGE],
      [randomBytes(20), SECRETSTREAM_TAG_MESSAGE],
      [randomBytes(20), SECRETSTREAM_TAG_FINAL],
    ]);
    const [first, second, third] = messages.map((pushed) => pushed.c) as [Uint8Array, Uint8Array, Uint8Array];
    expect(() => secretstreamPuller(header, key).pull(second)).toThrow(DecryptionError);
    const otherKey = sodium.crypto_secretstream_xchacha20poly1305_keygen();
    expect(() => secretstreamPuller(header, otherKey).pull(first)).toThrow(DecryptionError);
    const otherHeader = Uint8Array.from(header);
    otherHeader[23]! ^= 1;
    expect(() => secretstreamPuller(otherHeader, key).pull(first)).toThrow(DecryptionError);

    const puller = secretstreamPuller(header, key);
    puller.pull(first);
    expect(() => puller.pull(first)).toThrow(DecryptionError);
    expect(() => puller.pull(third)).toThrow(DecryptionError);
    expect(puller.pull(second).tag).toBe(SECRETSTREAM_TAG_MESSAGE);
    expect(puller.pull(third).tag).toBe(SECRETSTREAM_TAG_FINAL);
  });

  test('a header or key of another length is refused', () => {
    const key = new Uint8Array(32);
    expect(() => secretstreamPuller(new Uint8Array(23), key)).toThrow(DecryptionError);
    expect(() => secretstreamPuller(new Uint8Array(24), new Uint8Array(31))).toThrow(DecryptionError);
  });
});
