import { expect, test } from '@jest/globals';

import { pingResponseSchema } from './ping.ts';

test('a ping answer says pong, with or without the build id', () => {
  expect(pingResponseSchema.parse({ message: 'pong', id: 'abc123' })).toEqual({ message: 'pong', id: 'abc123' });
  expect(pingResponseSchema.parse({ message: 'pong' })).toEqual({ message: 'pong' });
});

test.each([{ message: 'hello' }, {}, { message: 'pong', id: 7 }, 'pong', null])('%j is not a ping answer', (body) => {
  expect(pingResponseSchema.safeParse(body).success).toBe(false);
});
