// The three error shapes of docs/protocol.md#errors as one throwable type, plus the handlers that turn
// every failure into one of them: nothing a client sends may produce a 500, an HTML page, or the
// bodies Fastify and Node write themselves (`{"error","message","statusCode"}`, empty bodies). The
// refusals made before a route runs (a URL that does not decode, a request Node's HTTP parser rejects,
// an unsupported Expect, CONNECT, HTTP/1.1 without Host) are answered here too, with messages of ours
// that never echo the input.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { middlewareErrorTexts, type ApiErrorCode } from '@ente/protocol';

/** An answer that is not a success; `body` is one of the three shapes. */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly body: Record<string, string>;
  constructor(status: number, body: Record<string, string>) {
    super(`${status} ${JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
  }
}

/** A typed API error `{code, message}`. */
export function apiError(status: number, code: ApiErrorCode, message = ''): HttpError {
  return new HttpError(status, { code, message });
}

/** A mapped plain error: `{}` with the status alone carrying the meaning. */
export function plainError(status: number): HttpError {
  return new HttpError(status, {});
}

/** A middleware error `{error}` (token checks and rate limits). */
export function middlewareError(status: number, text: string): HttpError {
  return new HttpError(status, { error: text });
}

export function badRequest(message: string): HttpError {
  return apiError(400, 'BAD_REQUEST', message);
}

export const rateLimited = () => middlewareError(429, middlewareErrorTexts.rateLimited);

const noSuchRoute = apiError(404, 'NOT_FOUND', 'no such route');

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) return reply.code(error.status).send(error.body);
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.code(413).send({ code: 'BAD_REQUEST', message: 'request body is too large' });
    if (status >= 400 && status < 500) {
      return reply.code(400).send({ code: 'BAD_REQUEST', message: clientErrorMessage(error) });
    }
    request.log.error({ err: error, reqId: request.id, url: request.routeOptions.url }, 'request failed');
    return reply.code(500).send({});
  });
  app.setNotFoundHandler((_request, reply) => reply.code(noSuchRoute.status).send(noSuchRoute.body));

  // Node answers an Expect other than 100-continue with an empty 417 unless someone listens.
  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify(apiError(417, 'BAD_REQUEST', 'unsupported Expect header').body);
    response.writeHead(417, { ...jsonHeaders(body), ...securityHeaders, connection: 'close' }).end(body);
  });
  // CONNECT never reaches Fastify: without a listener, Node drops the connection without an answer.
  app.server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    endWith(socket, rawAnswer(noSuchRoute.status, noSuchRoute.body));
  });
}

function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported content type';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'body: invalid JSON';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'body: length does not match Content-Length';
    default:
      // Library messages may quote the input at length: they go to no client.
      return 'bad request';
  }
}

/**
 * Fastify's `frameworkErrors`: the refusals its router makes before any hook runs, i.e. a path that
 * does not percent-decode (FST_ERR_BAD_URL) and a path parameter over `maxParamLength`
 * (FST_ERR_MAX_PARAM_LENGTH). Fastify's own answer echoes the path.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const refusal =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? apiError(414, 'BAD_REQUEST', 'URL: a path segment is too long')
      : error.code === 'FST_ERR_BAD_URL'
        ? badRequest('URL: invalid percent-encoding')
        : badRequest('bad request');
  void reply.header('x-request-id', request.id).headers(securityHeaders).code(refusal.status).send(refusal.body);
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser rejects (malformed request line,
 * method, header or chunk; a duplicated Content-Length; headers over the size limit) or a request not
 * received in time. The answer is written to the socket as it is (no request object exists), then
 * the connection is closed, as Node itself does.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.trace({ err: error }, 'client error');
  // Writing now would corrupt an answer already under way on this connection.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, message } = clientErrorAnswer(error.code);
  endWith(socket, rawAnswer(status, apiError(status, 'BAD_REQUEST', message).body));
}

function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'request not received in time' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'request line or headers are too large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'request body is too large' };
    default:
      return { status: 400, message: 'malformed HTTP request' };
  }
}

/** A header every answer carries (docs/protocol.md#transport); request-hooks.ts sets it on routed requests. */
const securityHeaders = { 'x-content-type-options': 'nosniff' };

/** The type of every JSON answer (Fastify's own for the objects routes return). */
export const JSON_TYPE = 'application/json; charset=utf-8';

function jsonHeaders(body: string) {
  return { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) };
}

/**
 * Writes `answer` and closes the connection once it is sent, or after a few seconds if the client does
 * not read it (it may also have gone already).
 */
function endWith(socket: Duplex, answer: string): void {
  const timer = setTimeout(() => socket.destroy(), 5000).unref();
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  socket.on('error', close);
  socket.end(answer, close);
}

/** A whole HTTP/1.1 answer with a JSON body, for a socket with no response object. */
function rawAnswer(status: number, body: Record<string, string>): string {
  const json = JSON.stringify(body);
  const headers = { ...jsonHeaders(json), ...securityHeaders, connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${json}`;
}
