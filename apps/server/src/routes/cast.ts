// Cast routes (docs/protocol.md#cast), with museum's paths (some also with a trailing slash, as museum registers
// them): the screen's, without an account (register, poll); the sender's, with a token (read the key, pair,
// list, revoke); and what a cast token (X-Cast-Access-Token or ?castToken=, the query for downloads whose 307
// must not carry a header) reads: the album's diff, info and files. Downloads answer 307 to a signed URL, made
// absolute against this request's origin as routes/files.ts does. The rules are services/cast.ts's.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import {
  castCodePathSchema,
  castDataRequestSchema,
  castDeviceIDPathSchema,
  castDiffQuerySchema,
  fileIDPathSchema,
  registerCastDeviceRequestSchema,
  type CastDataResponse,
  type CastDevicesResponse,
  type CastInfoResponse,
  type CastPublicKeyResponse,
  type RegisterCastDeviceResponse,
} from '@ente/protocol';

import { JSON_TYPE } from '../http/errors.ts';
import { absolute, requestClient } from '../http/request-client.ts';
import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import {
  castCollection,
  castDataOf,
  castDiffJson,
  castFileUrl,
  castPublicKey,
  castsOf,
  checkCastToken,
  publishCast,
  registerCastDevice,
  revokeAllCasts,
  revokeCast,
  type CastSender,
} from '../services/cast.ts';
import type { Context } from '../services/context.ts';
import type { ObjectStore } from '../services/object-store.ts';

export function registerCastRoutes(app: FastifyInstance, ctx: Context, store: ObjectStore): void {
  const auth = { config: { auth: true } } as const;
  const perUser = { config: { auth: true, rateLimit: 'user' } } as const;
  const sender = (request: FastifyRequest): CastSender => {
    const { userID, app: clientApp, tokenHash } = sessionOf(request);
    return { userID, app: clientApp, tokenHash };
  };

  // ---- the screen (no account) ----

  const register = async (request: FastifyRequest) => {
    const { publicKey } = parseInput(registerCastDeviceRequestSchema, request.body, 'body');
    return {
      deviceCode: await registerCastDevice(ctx, publicKey, requestClient(request)),
    } satisfies RegisterCastDeviceResponse;
  };
  app.post('/cast/device-info', { config: { rateLimit: 'ip' } }, register);
  app.post('/cast/device-info/', { config: { rateLimit: 'ip' } }, register);

  app.get('/cast/cast-data/:deviceCode', async (request) => {
    const { deviceCode } = parseInput(castCodePathSchema, request.params, 'path');
    return { encCastData: await castDataOf(ctx, deviceCode, requestClient(request)) } satisfies CastDataResponse;
  });

  // ---- the sender (a token) ----

  app.get('/cast/device-info/:deviceCode', perUser, async (request) => {
    const { deviceCode } = parseInput(castCodePathSchema, request.params, 'path');
    const publicKey = await castPublicKey(ctx, sender(request), deviceCode, requestClient(request));
    return { publicKey } satisfies CastPublicKeyResponse;
  });

  const publish = async (request: FastifyRequest) => {
    const body = parseInput(castDataRequestSchema, request.body, 'body');
    await publishCast(ctx, sender(request), body, requestClient(request));
    return {};
  };
  app.post('/cast/cast-data', perUser, publish);
  app.post('/cast/cast-data/', perUser, publish);

  const revokeAll = async (request: FastifyRequest) => {
    await revokeAllCasts(ctx, sessionOf(request).userID);
    return {};
  };
  app.delete('/cast/revoke-all-tokens', auth, revokeAll);
  app.delete('/cast/revoke-all-tokens/', auth, revokeAll);

  app.get('/cast/device-info', auth, async (request) => {
    return { devices: await castsOf(ctx, sessionOf(request).userID) } satisfies CastDevicesResponse;
  });

  app.delete('/cast/device-info/:deviceID', auth, async (request) => {
    const { deviceID } = parseInput(castDeviceIDPathSchema, request.params, 'path');
    await revokeCast(ctx, sessionOf(request).userID, deviceID);
    return {};
  });

  // ---- the cast token ----

  const access = (request: FastifyRequest) => checkCastToken(ctx, presentedCastToken(request));

  app.get('/cast/diff', async (request, reply) => {
    const granted = await access(request);
    const { sinceTime } = parseInput(castDiffQuerySchema, request.query, 'query');
    // A CastDiffResponse, already serialized (services/diff-pages.ts).
    return reply.type(JSON_TYPE).send(await castDiffJson(ctx, granted, sinceTime));
  });

  app.get('/cast/info', async (request) => {
    return { collection: await castCollection(ctx, await access(request)) } satisfies CastInfoResponse;
  });

  const redirectTo = (kind: 'file' | 'thumbnail') => async (request: FastifyRequest, reply: FastifyReply) => {
    const granted = await access(request);
    const { fileID } = parseInput(fileIDPathSchema, request.params, 'path');
    return reply.redirect(absolute(request, await castFileUrl(ctx, store, granted, fileID, kind)), 307);
  };
  app.get('/cast/files/preview/:fileID', redirectTo('thumbnail'));
  app.get('/cast/files/download/:fileID', redirectTo('file'));
}

/** The cast token of a request: the header first, then the query (a download's URL carries it there). */
function presentedCastToken(request: FastifyRequest): string | undefined {
  const header = request.headers['x-cast-access-token'];
  if (typeof header === 'string' && header !== '') return header;
  const query = (request.query ?? {}) as Record<string, unknown>;
  return typeof query.castToken === 'string' && query.castToken !== '' ? query.castToken : undefined;
}
