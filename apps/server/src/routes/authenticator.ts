// Authenticator routes (docs/protocol.md#authenticator): the wrapped authenticator key and the encrypted
// entities, synced by diff. Writes for one user are serialised by locking the user's key row, and each
// write takes updated_at = max(now, last + 1) on the database clock, so updated_at is unique and
// increasing per user and a diff page can never hide a row. `ifUpdatedAt` turns PUT and DELETE into
// compare-and-set. Each account has a quota (docs/protocol.md#authenticator): live entities and their
// bytes are counted under that same lock, in the transaction that writes, so no two writes (from any
// number of server processes) can pass it together; creates and updates are also limited per hour.
import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { sql, type Selectable, type Transaction } from 'kysely';

import {
  createAuthenticatorKeyRequestSchema,
  createEntityRequestSchema,
  deleteEntityQuerySchema,
  entityDiffQuerySchema,
  updateEntityRequestSchema,
  type AuthenticatorKeyResponse,
  type Entity,
  type EntityDiffResponse,
} from '@ente/protocol';

import type { AuthenticatorEntityTable, Database } from '../db/schema.ts';
import { apiError, badRequest, plainError } from '../http/errors.ts';
import { sessionOf } from '../http/token-check.ts';
import { parseInput, parseRepeatedQuery } from '../http/validation.ts';
import type { Context } from '../services/context.ts';
import { hasKeyAttributes } from '../services/users.ts';

export function registerAuthenticatorRoutes(app: FastifyInstance, ctx: Context): void {
  /** Creates and updates: a token, and the account's hourly limit on writes. */
  const writes = { auth: true, rateLimit: 'authenticatorWrite' } as const;
  app.get('/authenticator/key', { config: { auth: true } }, async (request) => {
    const { userID } = sessionOf(request);
    const row = await ctx.db
      .selectFrom('authenticator_key')
      .select(['encrypted_key', 'header', 'created_at'])
      .where('user_id', '=', userID)
      .executeTakeFirst();
    if (!row) throw apiError(404, 'NOT_FOUND', '');
    return {
      userID,
      encryptedKey: row.encrypted_key,
      header: row.header,
      createdAt: Number(row.created_at),
    } satisfies AuthenticatorKeyResponse;
  });

  app.post('/authenticator/key', { config: { auth: true } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const body = parseInput(createAuthenticatorKeyRequestSchema, request.body, 'body');
    if (!(await hasKeyAttributes(ctx, userID))) throw plainError(404);
    const now = ctx.clock.nowMicros();
    const inserted = await ctx.db
      .insertInto('authenticator_key')
      .values({
        user_id: userID,
        encrypted_key: body.encryptedKey,
        header: body.header,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!inserted) throw apiError(409, 'CONFLICT', 'Key already exists');
    return reply.code(200).send();
  });

  app.post('/authenticator/entity', { config: writes }, async (request) => {
    const { userID } = sessionOf(request);
    const body = parseInput(createEntityRequestSchema, request.body, 'body');
    const row = await ctx.db.transaction().execute(async (tx) => {
      if (!(await lockKey(tx, userID))) throw apiError(400, 'AUTH_KEY_NOT_CREATED', 'authenticator key not created');
      const usage = await usageOf(tx, userID);
      if (usage.entities >= ctx.config.AUTHENTICATOR_MAX_ENTITIES) throw entityLimit(ctx, 'entities');
      if (usage.bytes + sizeOf(body) > ctx.config.AUTHENTICATOR_MAX_BYTES) throw entityLimit(ctx, 'bytes');
      const time = await nextUpdatedAt(tx, userID);
      return tx
        .insertInto('authenticator_entity')
        .values({
          id: randomUUID(),
          user_id: userID,
          encrypted_data: body.encryptedData,
          header: body.header,
          created_at: time,
          updated_at: time,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    await ctx.invalidator.publish('entities', userID);
    return entityToWire(row);
  });

  app.put('/authenticator/entity', { config: writes }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const body = parseInput(updateEntityRequestSchema, request.body, 'body');
    await ctx.db.transaction().execute(async (tx) => {
      if (!(await lockKey(tx, userID))) throw apiError(400, 'AUTH_KEY_NOT_CREATED', 'authenticator key not created');
      const current = await entityOf(tx, userID, body.id);
      if (!current) throw apiError(404, 'NOT_FOUND', 'no such entity');
      if (current.is_deleted) throw badRequest('entity is already deleted');
      if (body.ifUpdatedAt !== undefined && Number(current.updated_at) !== body.ifUpdatedAt) {
        throw apiError(409, 'CONFLICT', 'entity was changed since ifUpdatedAt');
      }
      // Only growth counts: an update that keeps or shrinks the entity passes even over a lowered quota.
      const growth = sizeOf(body) - current.bytes;
      if (growth > 0 && (await usageOf(tx, userID)).bytes + growth > ctx.config.AUTHENTICATOR_MAX_BYTES) {
        throw entityLimit(ctx, 'bytes');
      }
      await tx
        .updateTable('authenticator_entity')
        .set({
          encrypted_data: body.encryptedData,
          header: body.header,
          updated_at: await nextUpdatedAt(tx, userID),
        })
        .where('id', '=', body.id)
        .execute();
    });
    await ctx.invalidator.publish('entities', userID);
    return reply.code(200).send();
  });

  app.delete('/authenticator/entity', { config: { auth: true } }, async (request, reply) => {
    const { userID } = sessionOf(request);
    const query = parseInput(deleteEntityQuerySchema, request.query, 'query');
    await ctx.db.transaction().execute(async (tx) => {
      // Without a key there are no entities, and an unknown id is still a success (docs/protocol.md#authenticator).
      if (!(await lockKey(tx, userID))) return;
      const current = await entityOf(tx, userID, query.id);
      if (!current) return;
      if (query.ifUpdatedAt !== undefined && Number(current.updated_at) !== query.ifUpdatedAt) {
        throw apiError(409, 'CONFLICT', 'entity was changed since ifUpdatedAt');
      }
      if (current.is_deleted) return;
      await tx
        .updateTable('authenticator_entity')
        .set({ is_deleted: true, encrypted_data: null, header: null, updated_at: await nextUpdatedAt(tx, userID) })
        .where('id', '=', query.id)
        .execute();
    });
    await ctx.invalidator.publish('entities', userID);
    return reply.code(200).send();
  });

  // Not async: the common poll, "anything since my last sync?", is answered from memory, without a
  // promise, when this process knows nothing changed (See: [Note: Cache invalidation]).
  app.get('/authenticator/entity/diff', { config: { auth: true } }, (request, reply) => {
    const { userID } = sessionOf(request);
    const { sinceTime, limit } = parseRepeatedQuery(entityDiffQuerySchema, request);
    const bound = ctx.cache.latestEntityTime(userID);
    if (bound !== undefined && sinceTime >= bound) {
      return reply.send({ diff: [], timestamp: ctx.clock.nowMicros() } satisfies EntityDiffResponse);
    }
    return entityDiff(ctx, userID, sinceTime, limit);
  });
}

async function entityDiff(ctx: Context, userID: number, sinceTime: number, limit: number) {
  const generation = ctx.cache.entitiesGeneration(userID);
  const rows = await ctx.db
    .selectFrom('authenticator_entity')
    .selectAll()
    .where('user_id', '=', userID)
    .where('updated_at', '>', sinceTime)
    .orderBy('updated_at', 'asc')
    .limit(limit)
    .execute();
  if (rows.length < limit) {
    // Every row after sinceTime is in this page, so none is newer than its last one.
    const last = rows.at(-1);
    ctx.cache.putLatestEntityTime(userID, last ? Number(last.updated_at) : sinceTime, generation);
  }
  return { diff: rows.map(entityToWire), timestamp: ctx.clock.nowMicros() } satisfies EntityDiffResponse;
}

/** Locks the user's authenticator key row for the transaction; false when there is no key. */
async function lockKey(tx: Transaction<Database>, userID: number): Promise<boolean> {
  const row = await tx
    .selectFrom('authenticator_key')
    .select('user_id')
    .where('user_id', '=', userID)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** The next updated_at for this user: the database's clock in µs, but always past the last one. */
async function nextUpdatedAt(tx: Transaction<Database>, userID: number): Promise<string> {
  const { next } = await tx
    .selectFrom('authenticator_entity')
    .select(
      sql<string>`greatest(
        (extract(epoch from clock_timestamp()) * 1000000)::bigint,
        coalesce(max(updated_at), 0) + 1
      )`.as('next'),
    )
    .where('user_id', '=', userID)
    .executeTakeFirstOrThrow();
  return next;
}

async function entityOf(tx: Transaction<Database>, userID: number, id: string) {
  const row = await tx
    .selectFrom('authenticator_entity')
    .select(['is_deleted', 'updated_at', sql<string>`${entityBytes}`.as('bytes')])
    .where('id', '=', id)
    .where('user_id', '=', userID)
    .executeTakeFirst();
  return row && { ...row, bytes: Number(row.bytes) };
}

/** What an entity counts against the quota: its encrypted data and header as stored (b64 text). */
const entityBytes = sql`coalesce(octet_length(encrypted_data), 0) + coalesce(octet_length(header), 0)`;

function sizeOf(entity: { encryptedData: string; header: string }): number {
  return entity.encryptedData.length + entity.header.length;
}

/** The user's live entities and their bytes; call it under the key lock (`lockKey`). */
async function usageOf(tx: Transaction<Database>, userID: number) {
  const row = await tx
    .selectFrom('authenticator_entity')
    .select([sql<string>`count(*)`.as('entities'), sql<string>`coalesce(sum(${entityBytes}), 0)`.as('bytes')])
    .where('user_id', '=', userID)
    .where('is_deleted', '=', false)
    .executeTakeFirstOrThrow();
  return { entities: Number(row.entities), bytes: Number(row.bytes) };
}

/** The quota's refusal (403, as museum's FILE_LIMIT_REACHED); nothing was written. */
function entityLimit(ctx: Context, which: 'entities' | 'bytes') {
  const { AUTHENTICATOR_MAX_ENTITIES: entities, AUTHENTICATOR_MAX_BYTES: bytes } = ctx.config;
  return apiError(
    403,
    'ENTITY_LIMIT_REACHED',
    which === 'entities'
      ? `the account holds the most entities it may (${entities})`
      : `the account's entities would exceed the ${bytes} bytes it may store`,
  );
}

function entityToWire(row: Selectable<AuthenticatorEntityTable>): Entity {
  return {
    id: row.id,
    userID: Number(row.user_id),
    encryptedData: row.encrypted_data,
    header: row.header,
    isDeleted: row.is_deleted,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
