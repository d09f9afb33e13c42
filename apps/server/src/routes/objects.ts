// The embedded object store's URLs (adapters/object-store/embedded.ts): PUT of an object or of a
// multipart upload's part, POST of CompleteMultipartUpload, GET with Range. No token: the signature in
// the query is the permission, checked by the store. Bodies are raw bytes streamed to the store, so
// these routes have their own body reader (the rest of the API reads JSON) and answer S3's XML.
import { Readable } from 'node:stream';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { errorXml, OBJECTS_PATH, type EmbeddedObjectStore, type StoreError } from '../services/object-store.ts';

const statusOf: Record<StoreError['error'] | 'InvalidRange', number> = {
  AccessDenied: 403,
  SignatureDoesNotMatch: 403,
  BadDigest: 400,
  IncompleteBody: 400,
  InvalidArgument: 400,
  InvalidPart: 400,
  InvalidPartOrder: 400,
  MalformedXML: 400,
  MissingContentLength: 411,
  NoSuchKey: 404,
  NoSuchUpload: 404,
  OperationAborted: 409,
  KeyConflict: 409,
  InvalidRange: 416,
};

export function registerObjectRoutes(app: FastifyInstance, store: EmbeddedObjectStore): void {
  const route = `${OBJECTS_PATH}*`;
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    // The body stays a stream for the handler: the store reads it while writing it to disk.
    scope.addContentTypeParser('*', (_request, payload, parsed) => parsed(null, payload));
    const config = { rawBody: true };
    scope.put(route, { config }, (request, reply) => put(store, request, reply));
    scope.post(route, { config }, (request, reply) => complete(store, request, reply));
    scope.get(route, { config }, (request, reply) => get(store, request, reply));
    done();
  });
}

async function put(store: EmbeddedObjectStore, request: FastifyRequest, reply: FastifyReply) {
  const signed = store.verify('PUT', keyOf(request), queryOf(request));
  if ('error' in signed) return answerError(reply, signed);
  if (signed.length === undefined || signed.md5 === undefined) return answerError(reply, notForThis);
  if (signed.uploadId !== undefined && signed.partNumber === undefined) return answerError(reply, notForThis);
  // Content-MD5 is part of what was signed, as in S3: another value is another request.
  if (request.headers['content-md5'] !== signed.md5) {
    return answerError(reply, { error: 'SignatureDoesNotMatch', message: 'Content-MD5 is not the signed one' });
  }
  const length = request.headers['content-length'];
  if (length === undefined) {
    return answerError(reply, {
      error: 'MissingContentLength',
      message: 'You must provide the Content-Length HTTP header.',
    });
  }
  if (length !== String(signed.length)) {
    return answerError(reply, {
      error: 'IncompleteBody',
      message: `Content-Length is not the signed ${String(signed.length)}`,
    });
  }
  const result = await store.receive(signed, bodyOf(request));
  if ('error' in result) return answerError(reply, result);
  return reply.code(200).header('etag', result.etag).send();
}

async function complete(store: EmbeddedObjectStore, request: FastifyRequest, reply: FastifyReply) {
  const signed = store.verify('POST', keyOf(request), queryOf(request));
  if ('error' in signed) return answerError(reply, signed);
  if (signed.uploadId === undefined) return answerError(reply, notForThis);
  const result = await store.complete(signed, bodyOf(request));
  if ('error' in result) return answerError(reply, result);
  return reply.code(200).type('application/xml').send(result.xml);
}

async function get(store: EmbeddedObjectStore, request: FastifyRequest, reply: FastifyReply) {
  const signed = store.verify(request.method, keyOf(request), queryOf(request));
  if ('error' in signed) return answerError(reply, signed);
  const object = await store.openObject(signed.key);
  if (!object) return answerError(reply, { error: 'NoSuchKey', message: 'The specified key does not exist.' });
  try {
    reply.header('accept-ranges', 'bytes').type('application/octet-stream');
    const range = rangeOf(request.headers.range, object.size);
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${String(object.size)}`);
      return await answerError(reply, { error: 'InvalidRange', message: 'The requested range is not satisfiable' });
    }
    if (object.size === 0) return await reply.code(200).header('content-length', '0').send('');
    const [start, end] = range ?? [0, object.size - 1];
    if (range) reply.code(206).header('content-range', `bytes ${String(start)}-${String(end)}/${String(object.size)}`);
    reply.header('content-length', String(end - start + 1));
    // The body is written here rather than piped by Fastify, so that its buffers are reused (embedded.ts).
    reply.hijack();
    const response = reply.raw;
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) response.setHeader(name, value);
    }
    response.writeHead(reply.statusCode);
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    try {
      await object.send(response, start, end);
      response.end();
    } catch (error) {
      // A client that went away is no failure; otherwise the headers are gone, so the response is cut short.
      if (!response.closed) request.log.error({ err: error }, 'object GET failed');
      response.destroy();
    }
  } finally {
    await object.close();
  }
}

/**
 * The one range of a `Range: bytes=…` header, 'unsatisfiable', or undefined for the whole object (no
 * header, several ranges, or a header that does not parse, which HTTP says to ignore).
 */
export function rangeOf(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return undefined;
  return start >= size ? 'unsatisfiable' : [start, end];
}

const notForThis: StoreError = { error: 'AccessDenied', message: 'the signed URL is not for this request' };

function answerError(reply: FastifyReply, error: StoreError | { error: 'InvalidRange'; message: string }) {
  return reply.code(statusOf[error.error]).type('application/xml').send(errorXml(error.error, error.message));
}

function keyOf(request: FastifyRequest): string {
  return (request.params as Record<string, string | undefined>)['*'] ?? '';
}

function queryOf(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}

function bodyOf(request: FastifyRequest): Readable {
  return request.body instanceof Readable ? request.body : Readable.from([]);
}
