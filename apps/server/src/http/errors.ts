// The three error shapes of docs/protocol.md#errors as one throwable type, plus the Fastify handlers
// that turn every failure into one of them: nothing a client sends may produce a 500 or an HTML page.
import type { FastifyError, FastifyInstance } from 'fastify';

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
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ code: 'NOT_FOUND', message: 'no such route' }));
}

function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported content type';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'body: invalid JSON';
    default:
      return error.message.slice(0, 200);
  }
}
