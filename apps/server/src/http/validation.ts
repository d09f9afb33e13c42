// Request validation with the protocol's zod schemas: a bad field becomes 400 BAD_REQUEST whose
// message names the field, and the body is parsed as JSON whatever the Content-Type says (protocol
// §1.1: the web client sends text/plain).
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { badRequest } from './errors.ts';

/** Parses `value` with `schema` or throws 400 naming the first bad field. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, where: string): z.output<Schema> {
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : where;
  throw badRequest(`${field}: ${issue?.message ?? 'invalid'}`);
}

/** Replaces Fastify's content-type parsers with one that reads any body as JSON (empty → undefined). */
export function parseEveryBodyAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badRequest('body: invalid JSON'), undefined);
    }
  });
}
