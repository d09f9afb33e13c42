// parseRepeatedQuery: the sync poll's query is parsed once per distinct query string; bad queries are
// refused every time, and query strings that carry a token are never kept.
import { entityDiffQuerySchema } from '@ente/protocol';
import type { FastifyRequest } from 'fastify';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HttpError } from './errors.ts';
import { parseRepeatedQuery } from './validation.ts';

function requestFor(url: string): FastifyRequest {
  return { url, query: Object.fromEntries(new URL(url, 'http://x').searchParams) } as unknown as FastifyRequest;
}

describe('parseRepeatedQuery', () => {
  test('parses like the schema and answers a repeated query string with the same frozen result', () => {
    const first = parseRepeatedQuery(entityDiffQuerySchema, requestFor('/d?sinceTime=17&limit=500'));
    assert.deepEqual(first, { sinceTime: 17, limit: 500 });
    assert.ok(Object.isFrozen(first));
    assert.equal(parseRepeatedQuery(entityDiffQuerySchema, requestFor('/d?sinceTime=17&limit=500')), first);
    const other = parseRepeatedQuery(entityDiffQuerySchema, requestFor('/d?sinceTime=18&limit=500'));
    assert.deepEqual(other, { sinceTime: 18, limit: 500 });
  });

  test('a bad query is refused each time it comes', () => {
    for (let i = 0; i < 2; i++) {
      assert.throws(
        () => parseRepeatedQuery(entityDiffQuerySchema, requestFor('/d?sinceTime=17&limit=0')),
        (error) => error instanceof HttpError && error.status === 400 && /limit/.test(error.body.message ?? ''),
      );
    }
  });

  test('a query string with a token is parsed afresh each time', () => {
    const url = '/d?sinceTime=5&limit=10&token=abc';
    const first = parseRepeatedQuery(entityDiffQuerySchema, requestFor(url));
    assert.deepEqual(first, { sinceTime: 5, limit: 10 });
    assert.notEqual(parseRepeatedQuery(entityDiffQuerySchema, requestFor(url)), first);
  });
});
