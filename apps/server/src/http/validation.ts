// Request validation with the protocol's zod schemas: a bad field becomes 400 BAD_REQUEST whose
// message names the field, and the body is parsed as JSON (http/content-type.ts has already refused
// the bodies that are neither JSON nor Ente's web client's text/plain, docs/protocol.md#transport).
// Also the KDF strength rule the schemas can't express.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { config, safeParse, type $ZodType, type output } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

import { limits } from '@ente/protocol';

import { badRequest } from './errors.ts';

// The protocol's schemas are zod/mini, which carries no messages of its own: a refusal names the
// field and says, in English, what is wrong with it.
config(en());

/** Parses `value` with `schema` or throws 400 naming the first bad field. */
export function parseInput<Schema extends $ZodType>(schema: Schema, value: unknown, where: string): output<Schema> {
  const result = safeParse(schema, value ?? (where === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : where;
  throw badRequest(`${field}: ${issue?.message ?? 'invalid'}`);
}

/** memLimit × opsLimit must be 4 GiB·ops and memLimit at least 128 MiB (docs/protocol.md#password-kdf). */
export function checkKdfStrength(memLimit: number, opsLimit: number): void {
  if (memLimit * opsLimit !== limits.kdfStrength) throw badRequest('Unexpected KDF strength');
  if (memLimit < limits.minMemLimit) throw badRequest('memory limit must be at least 128MB');
}

const rememberedQueries = new WeakMap<$ZodType, Map<string, unknown>>();
const maxRememberedQueries = 1000;

/**
 * parseInput for a query string that clients repeat verbatim (the sync poll asks the same question
 * until something changes): the parsed result of each raw query string is kept, up to a bound, so a
 * repeated poll skips the schema. Results are frozen; query strings that carry a token are not kept.
 */
export function parseRepeatedQuery<Schema extends $ZodType>(schema: Schema, request: FastifyRequest): output<Schema> {
  const start = request.url.indexOf('?');
  const raw = start < 0 ? '' : request.url.slice(start + 1);
  if (raw.includes('token=')) return parseInput(schema, request.query, 'query');
  let known = rememberedQueries.get(schema);
  if (!known) rememberedQueries.set(schema, (known = new Map<string, unknown>()));
  const remembered = known.get(raw);
  if (remembered !== undefined) return remembered as output<Schema>;
  const parsed = Object.freeze(parseInput(schema, request.query, 'query'));
  if (known.size >= maxRememberedQueries) known.clear();
  known.set(raw, parsed);
  return parsed as output<Schema>;
}

/** Replaces Fastify's content-type parsers with one that reads every admitted body as JSON (empty → undefined). */
export function parseEveryBodyAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badRequest('body: invalid JSON'), undefined);
    }
  });
}
