// Trash routes (docs/protocol.md#trash): trash files, the trash diff, delete for ever, empty. Restoring is
// POST /collections/restore-files (routes/collections.ts). The rules are services/trash.ts's; the app whose
// trash it is comes from the session.
import type { FastifyInstance } from 'fastify';

import {
  collectionsQuerySchema,
  deleteFromTrashRequestSchema,
  emptyTrashRequestSchema,
  trashFilesRequestSchema,
  type TrashDiffResponse,
} from '@ente/protocol';

import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import type { Context } from '../services/context.ts';
import { deleteFromTrash, emptyTrash, trashDiff, trashFiles } from '../services/trash.ts';

export function registerTrashRoutes(app: FastifyInstance, ctx: Context): void {
  const auth = { config: { auth: true } } as const;

  app.post('/files/trash', auth, async (request, reply) => {
    const { items } = parseInput(trashFilesRequestSchema, request.body, 'body');
    await trashFiles(ctx, sessionOf(request).userID, items);
    return reply.code(200).send();
  });

  app.get('/trash/v2/diff', auth, async (request) => {
    const { userID, app: clientApp } = sessionOf(request);
    const { sinceTime } = parseInput(collectionsQuerySchema, request.query, 'query');
    return (await trashDiff(ctx, userID, clientApp, sinceTime)) satisfies TrashDiffResponse;
  });

  app.post('/trash/delete', auth, async (request, reply) => {
    const { fileIDs } = parseInput(deleteFromTrashRequestSchema, request.body, 'body');
    await deleteFromTrash(ctx, sessionOf(request).userID, fileIDs);
    return reply.code(200).send();
  });

  app.post('/trash/empty', auth, async (request, reply) => {
    const { userID, app: clientApp } = sessionOf(request);
    const { lastUpdatedAt } = parseInput(emptyTrashRequestSchema, request.body, 'body');
    await emptyTrash(ctx, userID, clientApp, lastUpdatedAt);
    return reply.code(200).send();
  });
}
