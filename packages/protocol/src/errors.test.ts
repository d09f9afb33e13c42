import { expect, test } from '@jest/globals';

import { middlewareErrorBodySchema, plainErrorBodySchema, typedErrorBodySchema } from './errors.ts';

test('the three error bodies of docs/protocol.md#errors are told apart', () => {
  const typed = { code: 'USER_NOT_REGISTERED', message: '' };
  const middleware = { error: 'invalid token' };
  expect(typedErrorBodySchema.safeParse(typed).success).toBe(true);
  expect(typedErrorBodySchema.safeParse(middleware).success).toBe(false);
  expect(typedErrorBodySchema.safeParse({ code: 'X' }).success).toBe(false);
  expect(middlewareErrorBodySchema.safeParse(middleware).success).toBe(true);
  expect(middlewareErrorBodySchema.safeParse({}).success).toBe(false);
  expect(plainErrorBodySchema.safeParse({}).success).toBe(true);
  expect(plainErrorBodySchema.safeParse(middleware).success).toBe(false);
});
