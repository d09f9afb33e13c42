// Collection routes (docs/protocol.md#photos): create, list and diff, rename, add, move, restore and
// remove files, delete, share, unshare and leave, magic metadata. The rules are services/collections.ts's; the app a
// collection belongs to is the session's.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import {
  addFilesRequestSchema,
  collectionDiffQuerySchema,
  collectionIDPathSchema,
  collectionsQuerySchema,
  createCollectionRequestSchema,
  deleteCollectionQuerySchema,
  moveFilesRequestSchema,
  removeFilesRequestSchema,
  renameCollectionRequestSchema,
  shareCollectionRequestSchema,
  unshareCollectionRequestSchema,
  updateCollectionMagicMetadataRequestSchema,
} from '@ente/protocol';

import { JSON_TYPE } from '../http/errors.ts';
import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import {
  addFiles,
  collectionDiffJson,
  collectionsOf,
  createCollection,
  deleteCollection,
  leaveCollection,
  moveFiles,
  removeFiles,
  renameCollection,
  shareCollection,
  unshareCollection,
  updateCollectionMagicMetadata,
} from '../services/collections.ts';
import type { Context } from '../services/context.ts';

export function registerCollectionRoutes(app: FastifyInstance, ctx: Context): void {
  const auth = { config: { auth: true } } as const;

  app.post('/collections', auth, async (request) => {
    const { userID, app: clientApp } = sessionOf(request);
    const body = parseInput(createCollectionRequestSchema, request.body, 'body');
    return { collection: await createCollection(ctx, userID, clientApp, body) };
  });

  app.get('/collections/v2', auth, async (request) => {
    const { userID, app: clientApp } = sessionOf(request);
    const { sinceTime } = parseInput(collectionsQuerySchema, request.query, 'query');
    return { collections: await collectionsOf(ctx, userID, clientApp, sinceTime) };
  });

  app.get('/collections/v2/diff', auth, async (request, reply) => {
    const { userID } = sessionOf(request);
    const { collectionID, sinceTime } = parseInput(collectionDiffQuerySchema, request.query, 'query');
    // A CollectionDiffResponse, already serialized (services/diff-pages.ts).
    return reply.type(JSON_TYPE).send(await collectionDiffJson(ctx, userID, collectionID, sinceTime));
  });

  app.post('/collections/rename', auth, async (request, reply) => {
    const body = parseInput(renameCollectionRequestSchema, request.body, 'body');
    await renameCollection(ctx, sessionOf(request).userID, body);
    return reply.code(200).send();
  });

  app.post('/collections/add-files', auth, async (request, reply) => {
    const { userID, app: clientApp } = sessionOf(request);
    const body = parseInput(addFilesRequestSchema, request.body, 'body');
    await addFiles(ctx, userID, clientApp, body);
    return reply.code(200).send();
  });

  app.post('/collections/restore-files', auth, async (request, reply) => {
    const { userID, app: clientApp } = sessionOf(request);
    const body = parseInput(addFilesRequestSchema, request.body, 'body');
    await addFiles(ctx, userID, clientApp, body, { restore: true });
    return reply.code(200).send();
  });

  app.post('/collections/move-files', auth, async (request, reply) => {
    const body = parseInput(moveFilesRequestSchema, request.body, 'body');
    await moveFiles(ctx, sessionOf(request).userID, body);
    return reply.code(200).send();
  });

  app.post('/collections/v3/remove-files', auth, async (request, reply) => {
    const body = parseInput(removeFilesRequestSchema, request.body, 'body');
    await removeFiles(ctx, sessionOf(request).userID, body);
    return reply.code(200).send();
  });

  app.delete('/collections/v3/:collectionID', auth, async (request, reply) => {
    const { collectionID } = parseInput(collectionIDPathSchema, request.params, 'path');
    const { keepFiles } = parseInput(deleteCollectionQuerySchema, request.query, 'query');
    await deleteCollection(ctx, sessionOf(request).userID, collectionID, keepFiles === 'true');
    return reply.code(200).send();
  });

  app.post('/collections/share', auth, async (request) => {
    const body = parseInput(shareCollectionRequestSchema, request.body, 'body');
    return { sharees: await shareCollection(ctx, sessionOf(request).userID, body) };
  });

  app.post('/collections/unshare', auth, async (request) => {
    const body = parseInput(unshareCollectionRequestSchema, request.body, 'body');
    return { sharees: await unshareCollection(ctx, sessionOf(request).userID, body) };
  });

  const updateMagic =
    (which: 'private' | 'public' | 'sharee') => async (request: FastifyRequest, reply: FastifyReply) => {
      const body = parseInput(updateCollectionMagicMetadataRequestSchema, request.body, 'body');
      await updateCollectionMagicMetadata(ctx, sessionOf(request).userID, body, which);
      return reply.code(200).send();
    };
  app.put('/collections/magic-metadata', auth, updateMagic('private'));
  app.put('/collections/public-magic-metadata', auth, updateMagic('public'));
  app.put('/collections/sharee-magic-metadata', auth, updateMagic('sharee'));

  app.post('/collections/leave/:collectionID', auth, async (request, reply) => {
    const { collectionID } = parseInput(collectionIDPathSchema, request.params, 'path');
    await leaveCollection(ctx, sessionOf(request).userID, collectionID);
    return reply.code(200).send();
  });
}
