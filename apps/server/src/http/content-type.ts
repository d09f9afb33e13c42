// Which request bodies the server reads (docs/protocol.md#transport). Every route takes JSON, so a
// body must say `application/json`, with one exception: Ente's web client sends its JSON as a string,
// which fetch labels `text/plain;charset=UTF-8`, together with X-Client-Package. A web page of another
// origin can send text/plain, form or typeless bodies without a CORS preflight ("simple" requests),
// but not with a JSON type or an X-… header: those need a preflight, which only the configured origins
// pass. So a body is read when it is typed JSON, or text/plain on a request carrying X-Client-Package;
// anything else is 415 before the route, its rate limit or its token check runs. A request without a
// body (no Content-Length above 0, no Transfer-Encoding) passes whatever its headers say.
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { apiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body as raw bytes itself (the object store's uploads): any type passes. */
    rawBody?: boolean;
  }
}

const unsupported = apiError(415, 'BAD_REQUEST', 'unsupported content type: send the body as application/json');

/** Registers the check as a global onRequest hook; it must come after the CORS preflight hook. */
export function registerBodyTypeCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!hasBody(request) || request.routeOptions.config.rawBody === true || isAcceptedType(request)) {
      done();
      return;
    }
    reply.code(unsupported.status).send(unsupported.body);
  });
}

function hasBody(request: FastifyRequest): boolean {
  const { headers } = request;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length.trim() !== '0';
}

function isAcceptedType(request: FastifyRequest): boolean {
  const type = mediaTypeOf(request.headers['content-type']);
  if (type === 'application/json') return true;
  return type === 'text/plain' && request.headers['x-client-package'] !== undefined;
}

/** The media type without its parameters, lower-cased; '' when there is none. */
function mediaTypeOf(header: string | undefined): string {
  if (header === undefined) return '';
  const end = header.indexOf(';');
  return (end < 0 ? header : header.slice(0, end)).trim().toLowerCase();
}
