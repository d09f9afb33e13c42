// What every request passes through before routing: its id, the security headers, CORS for the
// configured origins (preflights are answered here), the Host an HTTP/1.1 request must carry (Node's own
// refusal, an empty 400, is turned off in apps/server/src/app.ts), and the app it belongs to
// (X-Client-Package).
// See docs/protocol.md#transport.
import type { FastifyInstance } from 'fastify';

import { clientAppOf, type ClientApp } from './client-app.ts';
import { badRequest } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    clientApp: ClientApp;
  }
}

/**
 * A callback hook (not async), with the fixed headers prepared once, because it runs for every
 * request, including the hot sync poll: no promise per request.
 */
export function registerRequestHooks(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  const allowed = new Set(allowedOrigins);
  app.decorateRequest('clientApp', 'photos');
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.headers(request.method === 'GET' ? getHeaders : commonHeaders);
    const origin = request.headers.origin;
    const isAllowed = origin !== undefined && allowed.has(origin);
    if (isAllowed) reply.headers(corsHeaders(origin));
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      reply.code(400).send(missingHost.body);
      return;
    }
    if (request.method === 'OPTIONS') {
      // Preflight: 200 rather than 204, which Safari mishandles.
      if (isAllowed) reply.headers(preflightHeaders);
      reply.code(200).send();
      return;
    }
    request.clientApp = clientAppOf(request.headers['x-client-package']);
    done();
  });
}

const missingHost = badRequest('missing Host header');

const commonHeaders = { 'x-content-type-options': 'nosniff', vary: 'Origin' };
const getHeaders = { ...commonHeaders, 'cache-control': 'no-store' };

function corsHeaders(origin: string) {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    // ETag: the object store's part uploads answer it and the client names it when completing.
    'Access-Control-Expose-Headers': 'X-Request-Id, ETag',
  };
}

const corsAllowedHeaders = [
  'Content-Type',
  'Content-Length',
  'Accept-Encoding',
  'X-CSRF-Token',
  'Authorization',
  'Accept',
  'Origin',
  'Cache-Control',
  'X-Requested-With',
  'X-Auth-Token',
  'X-Auth-Access-Token',
  'X-Auth-Access-Token-JWT',
  'X-Cast-Access-Token',
  'X-Client-Package',
  'X-Client-Version',
  'Range',
  // The object store's uploads carry their MD5.
  'Content-MD5',
].join(', ');

const preflightHeaders = {
  'Access-Control-Allow-Methods': 'POST, OPTIONS, GET, PUT, PATCH, DELETE',
  'Access-Control-Allow-Headers': corsAllowedHeaders,
  'Access-Control-Max-Age': '1728000',
};
