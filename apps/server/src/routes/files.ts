// File routes (docs/protocol.md#photos): upload URLs (single and multipart), POST /files, downloads as
// 307 redirects to signed URLs (the token may come as ?token=, so that an <img> can load them), magic
// metadata, and the derived data there is none of. The rules are services/files.ts's. The store's URLs may be relative (the embedded store
// serves them on this origin): they are made absolute against the request's own origin.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import {
  createFileRequestSchema,
  fileDataQuerySchema,
  fileIDPathSchema,
  multipartUploadUrlRequestSchema,
  updateMagicMetadataRequestSchema,
  uploadUrlRequestSchema,
  type MultipartUploadUrlResponse,
  type PhotoFile,
  type UploadUrlResponse,
} from '@ente/protocol';

import { apiError } from '../http/errors.ts';
import { absolute } from '../http/request-client.ts';
import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import type { Context } from '../services/context.ts';
import {
  assertFileReadable,
  createFile,
  fileObjectUrl,
  multipartUploadUrls,
  updateMagicMetadata,
  uploadUrl,
} from '../services/files.ts';
import type { ObjectStore } from '../services/object-store.ts';

export function registerFileRoutes(app: FastifyInstance, ctx: Context, store: ObjectStore): void {
  const auth = { config: { auth: true } } as const;
  /** Each URL handed out costs a ledger row: they are limited per user and minute, as in museum. */
  const uploads = { config: { auth: true, rateLimit: 'uploadUrl' } } as const;

  app.post('/files/upload-url', uploads, async (request) => {
    const body = parseInput(uploadUrlRequestSchema, request.body, 'body');
    const answer = await uploadUrl(ctx, store, sessionOf(request).userID, body);
    return { ...answer, url: absolute(request, answer.url) } satisfies UploadUrlResponse;
  });

  app.post('/files/multipart-upload-url', uploads, async (request) => {
    const body = parseInput(multipartUploadUrlRequestSchema, request.body, 'body');
    const answer = await multipartUploadUrls(ctx, store, sessionOf(request).userID, body);
    return {
      objectKey: answer.objectKey,
      partURLs: answer.partURLs.map((url) => absolute(request, url)),
      completeURL: absolute(request, answer.completeURL),
    } satisfies MultipartUploadUrlResponse;
  });

  app.post('/files', auth, async (request) => {
    const { userID, app: clientApp } = sessionOf(request);
    const body = parseInput(createFileRequestSchema, request.body, 'body');
    return (await createFile(ctx, store, userID, clientApp, body)) satisfies PhotoFile;
  });

  /** A 307 to a signed GET of the file's object or thumbnail. */
  const redirectTo = (kind: 'file' | 'thumbnail') => async (request: FastifyRequest, reply: FastifyReply) => {
    const { fileID } = parseInput(fileIDPathSchema, request.params, 'path');
    const url = await fileObjectUrl(ctx, store, sessionOf(request).userID, fileID, kind);
    return reply.redirect(absolute(request, url), 307);
  };
  app.get('/files/preview/:fileID', auth, redirectTo('thumbnail'));
  app.get('/files/download/:fileID', auth, redirectTo('file'));

  // A file's derived data (a video's streamable preview, ML data): this server keeps none, so the answer is
  // museum's for "none" once the file is known to be the caller's to read: 204 when the client prefers it (Ente's
  // viewer then plays the original), else 404 NOT_FOUND.
  app.get('/files/data/fetch', auth, async (request, reply) => {
    const query = parseInput(fileDataQuerySchema, request.query, 'query');
    await assertFileReadable(ctx, sessionOf(request).userID, query.fileID);
    if (query.preferNoContent) return reply.code(204).send();
    throw apiError(404, 'NOT_FOUND', '');
  });

  const updateMagic = (which: 'private' | 'public') => async (request: FastifyRequest, reply: FastifyReply) => {
    const { metadataList } = parseInput(updateMagicMetadataRequestSchema, request.body, 'body');
    await updateMagicMetadata(ctx, sessionOf(request).userID, metadataList, which);
    return reply.code(200).send();
  };
  app.put('/files/magic-metadata', auth, updateMagic('private'));
  app.put('/files/public-magic-metadata', auth, updateMagic('public'));
}
