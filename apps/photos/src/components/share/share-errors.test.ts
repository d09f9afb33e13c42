import { ApiError, ClientError, NetworkError, ServerError } from '@ente/shared/http.ts';

import { addressProblem, normalizedAddress, requestFailure, shareFailure } from './share-errors.ts';

const album = {
  owner: { id: 1, email: 'Me@Example.org', role: 'OWNER' as const },
  sharees: [{ id: 2, email: 'friend@example.org', role: 'VIEWER' as const }],
};

test('an address is checked before anything is sent', () => {
  expect(addressProblem('new@example.org', album)).toBeUndefined();
  for (const typed of ['', 'friend', 'friend@', '@example.org', 'a b@example.org', 'a@example', 'a@@example.org']) {
    expect([typed, addressProblem(typed, album)]).toEqual([typed, 'invalid']);
  }
  expect(addressProblem('me@example.org', album)).toBe('self');
  expect(addressProblem('friend@example.org', album)).toBe('already');
  expect(normalizedAddress('  Friend@Example.org ')).toBe('friend@example.org');
});

test("the server's answer for an address without an account, and the request's failures", () => {
  expect(shareFailure(new ApiError('no public key for this e-mail', 'NOT_FOUND', 404))).toBe('unknown');
  expect(shareFailure(new ClientError(404))).toBe('failed');
  expect(shareFailure(new NetworkError())).toBe('network');
  expect(shareFailure(new ClientError(429))).toBe('rate');
  expect(shareFailure(new ApiError('slow down', 'TOO_MANY_REQUESTS', 429))).toBe('rate');
  expect(requestFailure(new ServerError(500))).toBe('failed');
  expect(requestFailure(new ApiError('no account with this e-mail', 'NOT_FOUND', 404))).toBe('failed');
  expect(requestFailure(new Error('anything'))).toBe('failed');
});
