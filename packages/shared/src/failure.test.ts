import { errorCodeOf, Failure, httpStatusOf, translationKeyOf } from './failure.ts';
import { ApiError, ClientError, NetworkError, ServerError } from './http.ts';

test('httpStatusOf: the status of answered requests, also as plain objects from a worker', () => {
  expect(httpStatusOf(new ApiError('m', 'NOT_FOUND', 404))).toBe(404);
  expect(httpStatusOf(new ClientError(409))).toBe(409);
  expect(httpStatusOf(new ServerError(502))).toBe(502);
  expect(httpStatusOf({ name: 'ClientError', httpStatus: 401 })).toBe(401);
  expect(httpStatusOf(new NetworkError())).toBeUndefined();
  expect(httpStatusOf({ httpStatus: '404' })).toBeUndefined();
  expect(httpStatusOf(null)).toBeUndefined();
});

test('errorCodeOf: the typed code, if any', () => {
  expect(errorCodeOf(new ApiError('m', 'AUTH_KEY_NOT_CREATED', 404))).toBe('AUTH_KEY_NOT_CREATED');
  expect(errorCodeOf(new ClientError(400))).toBeUndefined();
  expect(errorCodeOf(undefined)).toBeUndefined();
});

test('a Failure carries its translation key, its values and its cause', () => {
  class DomainError extends Failure<'domain:one' | 'domain:two'> {}
  const cause = new Error('inner');
  const e = new DomainError('domain:two', { cause, values: { n: '3' } });
  expect(e).toBeInstanceOf(Error);
  expect(e).toBeInstanceOf(Failure);
  expect([e.translationKey, e.values, e.cause, e.message]).toEqual(['domain:two', { n: '3' }, cause, 'domain:two']);
  expect(new Failure('x:y', { message: 'for the log' }).message).toBe('for the log');
  expect(translationKeyOf(e)).toBe('domain:two');
  expect(translationKeyOf(new Error('plain'))).toBeUndefined();
});
