// Public link routes (docs/protocol.md#public-links): the owner's /collections/share-url, and the viewer's
// (and, where the link allows collecting, the uploader's) /public-collection/* with the link's access token (X-Auth-Access-Token or ?accessToken=) and, for a
// password link, the verify-password token (X-Auth-Access-Token-JWT or ?accessTokenJWT=). Downloads answer
// 307 to a signed URL, made absolute against this request's origin as routes/files.ts does. The rules are
// services/public-links.ts's.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import {
  collectionIDPathSchema,
  collectionsQuerySchema,
  createFileRequestSchema,
  createPublicLinkRequestSchema,
  fileIDPathSchema,
  multipartUploadUrlRequestSchema,
  updatePublicLinkRequestSchema,
  uploadUrlRequestSchema,
  verifyLinkPasswordRequestSchema,
  type MultipartUploadUrlResponse,
  type PhotoFile,
  type UploadUrlResponse,
} from '@ente/protocol';

import { badRequest, JSON_TYPE } from '../http/errors.ts';
import { absolute } from '../http/request-client.ts';
import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import type { Context } from '../services/context.ts';
import { createFile, multipartUploadUrls, uploadUrl } from '../services/files.ts';
import type { ObjectStore } from '../services/object-store.ts';
import {
  checkLink,
  collectingFor,
  createLink,
  disableLink,
  linkCollection,
  linkDiffJson,
  linkFileUrl,
  updateLink,
  verifyLinkPassword,
  type LinkCheck,
  type PresentedLink,
} from '../services/public-links.ts';

export function registerPublicLinkRoutes(app: FastifyInstance, ctx: Context, store: ObjectStore): void {
  const auth = { config: { auth: true } } as const;

  // Both answer the link as `{result}`.
  app.post('/collections/share-url', auth, async (request) => {
    const { userID } = sessionOf(request);
    return { result: await createLink(ctx, userID, parseInput(createPublicLinkRequestSchema, request.body, 'body')) };
  });
  app.put('/collections/share-url', auth, async (request) => {
    const { userID } = sessionOf(request);
    return { result: await updateLink(ctx, userID, parseInput(updatePublicLinkRequestSchema, request.body, 'body')) };
  });

  app.delete('/collections/share-url/:collectionID', auth, async (request, reply) => {
    const { collectionID } = parseInput(collectionIDPathSchema, request.params, 'path');
    await disableLink(ctx, sessionOf(request).userID, collectionID);
    return reply.code(200).send();
  });

  const viewer = (request: FastifyRequest, check: LinkCheck) => checkLink(ctx, presentedLink(request), check);

  app.get('/public-collection/info', async (request) => {
    const access = await viewer(request, { password: false, admit: true });
    return { collection: await linkCollection(ctx, access), referralCode: '' };
  });

  app.get('/public-collection/diff', async (request, reply) => {
    const access = await viewer(request, { password: true, admit: true });
    const { sinceTime } = parseInput(collectionsQuerySchema, request.query, 'query');
    // A CollectionDiffResponse, already serialized (services/diff-pages.ts).
    return reply.type(JSON_TYPE).send(await linkDiffJson(ctx, access, sinceTime));
  });

  /** The routes past /info and /verify-password: a password link's token needed, no device admitted. */
  const content = { password: true, admit: false };
  const redirectTo = (kind: 'file' | 'thumbnail') => async (request: FastifyRequest, reply: FastifyReply) => {
    const access = await viewer(request, content);
    const { fileID } = parseInput(fileIDPathSchema, request.params, 'path');
    return reply.redirect(absolute(request, await linkFileUrl(ctx, store, access, fileID, kind)), 307);
  };
  app.get('/public-collection/files/preview/:fileID', redirectTo('thumbnail'));
  app.get('/public-collection/files/download/:fileID', redirectTo('file'));

  // Collecting: uploads into the album through the link, as its owner's files (services/files.ts).
  app.post('/public-collection/upload-url', async (request) => {
    const { ownerID } = await collectingFor(ctx, await viewer(request, content), 'urls');
    const answer = await uploadUrl(ctx, store, ownerID, parseInput(uploadUrlRequestSchema, request.body, 'body'));
    return { ...answer, url: absolute(request, answer.url) } satisfies UploadUrlResponse;
  });
  app.post('/public-collection/multipart-upload-url', async (request) => {
    const { ownerID } = await collectingFor(ctx, await viewer(request, content), 'urls');
    const body = parseInput(multipartUploadUrlRequestSchema, request.body, 'body');
    const answer = await multipartUploadUrls(ctx, store, ownerID, body);
    const partURLs = answer.partURLs.map((url) => absolute(request, url));
    return {
      ...answer,
      partURLs,
      completeURL: absolute(request, answer.completeURL),
    } satisfies MultipartUploadUrlResponse;
  });
  app.post('/public-collection/file', async (request) => {
    const access = await viewer(request, content);
    const { ownerID, app: ownerApp } = await collectingFor(ctx, access, 'file');
    const body = parseInput(createFileRequestSchema, request.body, 'body');
    if (body.collectionID !== access.collectionID) throw badRequest('can only upload to the collection of the link');
    return (await createFile(ctx, store, ownerID, ownerApp, body)) satisfies PhotoFile;
  });

  // Limited per address here, and per link (from every address together) in the service.
  app.post('/public-collection/verify-password', { config: { rateLimit: 'ip' } }, async (request) => {
    const access = await viewer(request, { password: false, admit: false });
    const { passHash } = parseInput(verifyLinkPasswordRequestSchema, request.body, 'body');
    return { jwtToken: await verifyLinkPassword(ctx, access, passHash) };
  });
}

/** The link credentials of a request: headers first, then the query (an <img> can only use the query). */
function presentedLink(request: FastifyRequest): PresentedLink {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const pick = (header: string, param: string) => {
    const fromHeader = request.headers[header];
    if (typeof fromHeader === 'string' && fromHeader !== '') return fromHeader;
    const fromQuery = query[param];
    return typeof fromQuery === 'string' && fromQuery !== '' ? fromQuery : undefined;
  };
  const userAgent = request.headers['user-agent'];
  return {
    accessToken: pick('x-auth-access-token', 'accessToken'),
    jwt: pick('x-auth-access-token-jwt', 'accessTokenJWT'),
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : '',
  };
}
