// parseRepeatedQuery: the sync poll's query is parsed once per distinct query string; bad queries are
// refused every time, and query strings that carry a token are never kept.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { FastifyRequest } from 'fastify';

import { entityDiffQuerySchema } from '@ente/protocol';

import { HttpError } from './errors.ts';
import { parseRepeatedQuery } from './validation.ts';

function requestFor(url: string): FastifyRequest {
  return { url, query: Object.fromEntries(new URL(url, 'http://x').searchParams) } as unknown as FastifyRequest;
}
const parse = (url: string) => parseRepeatedQuery(entityDiffQuerySchema, requestFor(url));

describe('parseRepeatedQuery', () => {
  test('parses like the schema', () => {
    assert.deepEqual(parse('/d?sinceTime=17&limit=500'), { sinceTime: 17, limit: 500 });
    assert.deepEqual(parse('/d?sinceTime=18&limit=500'), { sinceTime: 18, limit: 500 });
  });

  test('a repeated query string gets the same frozen result', () => {
    const first = parse('/d?sinceTime=19&limit=500');
    assert.ok(Object.isFrozen(first));
    assert.equal(parse('/d?sinceTime=19&limit=500'), first);
  });

  test('a bad query is refused each time it comes', () => {
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => parse('/d?sinceTime=17&limit=0'),
        (error) => error instanceof HttpError && error.status === 400 && /limit/.test(error.body.message ?? ''),
      );
    }
  });

  test('a query string with a token is parsed afresh each time', () => {
    const url = '/d?sinceTime=5&limit=10&token=abc';
    const first = parse(url);
    assert.deepEqual(first, { sinceTime: 5, limit: 10 });
    assert.notEqual(parse(url), first);
  });
});
