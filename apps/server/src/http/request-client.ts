// What the services need to know about the client of a request, read once in the route layer so that no
// service depends on Fastify (docs/architecture.md#the-server).
import type { FastifyRequest } from 'fastify';

import type { RequestClient } from './client-app.ts';

/** The client's address and user agent as the request carries them (services cut them to their columns). */
export function requestClient(request: FastifyRequest): RequestClient {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** The X-Auth-Token header of a request, '' when it is missing or repeated. */
export function authTokenHeader(request: FastifyRequest): string {
  const header = request.headers['x-auth-token'];
  return typeof header === 'string' ? header : '';
}

/** The token a request presents: the X-Auth-Token header, else ?token=, else ''. */
export function presentedToken(request: FastifyRequest): string {
  const header = authTokenHeader(request);
  const query = (request.query as Record<string, unknown> | undefined)?.token;
  return header !== '' ? header : typeof query === 'string' ? query : '';
}

/** A store URL as the client must use it: relative ones (the embedded store's) resolved against this request's origin. */
export function absolute(request: FastifyRequest, url: string): string {
  return new URL(url, `${request.protocol}://${request.host}`).toString();
}
