import { ApiError, NetworkError } from '@ente/shared/http.ts';

import { castAlbum, castFailure, newCastToken, typedCode, type CastSenderDeps } from './cast-sender.ts';

test("a cast token is Ente's form: cast_ and 22 letters and digits, fresh each time", () => {
  const tokens = new Set(Array.from({ length: 50 }, () => newCastToken()));
  expect(tokens.size).toBe(50);
  for (const token of tokens) expect(token).toMatch(/^cast_[A-Za-z0-9]{22}$/);
});

test('the bytes past the largest multiple of 62 are dropped, so every character is equally likely', () => {
  let round = 0;
  const random = (bytes: Uint8Array) => {
    bytes.fill(round++ === 0 ? 250 : 63);
    return bytes;
  };
  expect(newCastToken(random)).toBe(`cast_${'B'.repeat(22)}`);
});

test('a typed code is trimmed and upper-cased; anything but six letters and digits is refused', () => {
  expect(typedCode(' ab3xy9 ')).toBe('AB3XY9');
  for (const typed of ['', 'ABC12', 'ABC1234', 'AB-123', 'ÄBC123']) expect(typedCode(typed)).toBeUndefined();
});

test('pairing revokes first, reads the key by code, and posts the JSON payload sealed to that key', async () => {
  const calls: unknown[][] = [];
  const deps: CastSenderDeps = {
    revokeAll: () => Promise.resolve(void calls.push(['revokeAll'])),
    publicKeyOf: (code) => Promise.resolve((calls.push(['publicKeyOf', code]), 'SCREENKEY')),
    seal: (data, key) => Promise.resolve((calls.push(['seal', data, key]), 'SEALED')),
    postCastData: (request) => Promise.resolve(void calls.push(['post', request])),
  };
  await castAlbum({ id: 7, key: 'QUxCVU1LRVk=' }, 'AB3XY9', deps, 'cast_abcdefghijklmnopqrstuv');
  const json = '{"castToken":"cast_abcdefghijklmnopqrstuv","collectionID":7,"collectionKey":"QUxCVU1LRVk="}';
  expect(calls).toEqual([
    ['revokeAll'],
    ['publicKeyOf', 'AB3XY9'],
    ['seal', Buffer.from(json, 'utf8').toString('base64'), 'SCREENKEY'],
    ['post', { deviceCode: 'AB3XY9', collectionID: 7, castToken: 'cast_abcdefghijklmnopqrstuv', encPayload: 'SEALED' }],
  ]);
});

test('a failure is said by its status: 404 unknown code, 403 device limit, 429, network, else failed', () => {
  expect(castFailure(new ApiError('', 'NOT_FOUND', 404))).toBe('code_unknown');
  expect(castFailure(new ApiError('', '', 403))).toBe('limit');
  expect(castFailure(new ApiError('', '', 429))).toBe('rate');
  expect(castFailure(new NetworkError())).toBe('network');
  expect(castFailure(new ApiError('', '', 500))).toBe('failed');
  expect(castFailure(new Error('x'))).toBe('failed');
});
