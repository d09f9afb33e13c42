// Passkey routes (docs/protocol.md#passkeys): the management token, the five management routes the accounts
// app calls with it (list, rename, delete, registration begin/finish), the login-time ceremony
// (begin/finish/get-token) and passkey recovery set-up. The rules are services/passkeys.ts's; the wire
// shapes are museum's.
import type { FastifyInstance } from 'fastify';

import {
  assertionCredentialSchema,
  beginPasskeyLoginRequestSchema,
  configurePasskeyRecoveryRequestSchema,
  finishPasskeyLoginQuerySchema,
  finishRegistrationQuerySchema,
  passkeyIDParamsSchema,
  passkeyTokenQuerySchema,
  registrationCredentialSchema,
  renamePasskeyQuerySchema,
  type AccountsTokenResponse,
  type ListPasskeysResponse,
  type RecoveryStatusResponse,
} from '@ente/protocol';

import { authTokenHeader, requestClient } from '../http/request-client.ts';
import { sessionOf } from '../http/token-check.ts';
import { parseInput } from '../http/validation.ts';
import type { Context } from '../services/context.ts';
import {
  accountsTokenUser,
  beginPasskeyLogin,
  beginRegistration,
  configurePasskeyRecovery,
  deletePasskey,
  finishPasskeyLogin,
  finishRegistration,
  isPasskeyRecoveryEnabled,
  issueAccountsToken,
  listPasskeys,
  passkeyLoginAnswer,
  renamePasskey,
} from '../services/passkeys.ts';

export function registerPasskeyRoutes(app: FastifyInstance, ctx: Context): void {
  const accountsUrl = ctx.config.ACCOUNTS_URL.replace(/\/+$/, '');

  app.get('/users/accounts-token', { config: { auth: true, rateLimit: 'user' } }, (request) => {
    const { userID, tokenHash } = sessionOf(request);
    return { accountsToken: issueAccountsToken(ctx, userID, tokenHash), accountsUrl } satisfies AccountsTokenResponse;
  });

  app.get('/passkeys', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, authTokenHeader(request));
    const passkeys = (await listPasskeys(ctx, userID)).map((row) => ({
      id: row.id,
      userID,
      friendlyName: row.friendly_name,
      createdAt: Number(row.created_at),
      // Ours, not museum's: when it last signed in, once it has.
      ...(row.last_used_at !== null && { lastUsedAt: Number(row.last_used_at) }),
    }));
    // museum answers null rather than [] when there are none.
    return { accountsUrl, passkeys: passkeys.length ? passkeys : null } satisfies ListPasskeysResponse;
  });

  app.patch('/passkeys/:passkeyID', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, authTokenHeader(request));
    const { passkeyID } = parseInput(passkeyIDParamsSchema, request.params, 'path');
    const { friendlyName } = parseInput(renamePasskeyQuerySchema, request.query, 'query');
    await renamePasskey(ctx, userID, passkeyID, friendlyName);
    return {};
  });

  app.delete('/passkeys/:passkeyID', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, authTokenHeader(request));
    const { passkeyID } = parseInput(passkeyIDParamsSchema, request.params, 'path');
    await deletePasskey(ctx, userID, passkeyID);
    return {};
  });

  app.post('/passkeys/registration/begin', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, authTokenHeader(request));
    return beginRegistration(ctx, userID);
  });

  app.post('/passkeys/registration/finish', { config: { rateLimit: 'ip' } }, async (request) => {
    const userID = await accountsTokenUser(ctx, authTokenHeader(request));
    const query = parseInput(finishRegistrationQuerySchema, request.query, 'query');
    const body = parseInput(registrationCredentialSchema, request.body, 'body');
    await finishRegistration(ctx, userID, query, body);
    return {};
  });

  app.post('/users/two-factor/passkeys/begin', { config: { rateLimit: 'ip' } }, async (request) => {
    const { sessionID } = parseInput(beginPasskeyLoginRequestSchema, request.body, 'body');
    return beginPasskeyLogin(ctx, sessionID);
  });

  app.post('/users/two-factor/passkeys/finish', { config: { rateLimit: 'ip' } }, async (request) => {
    const query = parseInput(finishPasskeyLoginQuerySchema, request.query, 'query');
    const body = parseInput(assertionCredentialSchema, request.body, 'body');
    return finishPasskeyLogin(ctx, query, body, request.clientApp, requestClient(request));
  });

  app.get('/users/two-factor/passkeys/get-token', { config: { rateLimit: 'ip' } }, async (request) => {
    const { sessionID } = parseInput(passkeyTokenQuerySchema, request.query, 'query');
    return passkeyLoginAnswer(ctx, sessionID);
  });

  app.get('/users/two-factor/recovery-status', { config: { auth: true, rateLimit: 'user' } }, async (request) => {
    const enabled = await isPasskeyRecoveryEnabled(ctx, sessionOf(request).userID);
    return { allowAdminReset: true, isPasskeyRecoveryEnabled: enabled } satisfies RecoveryStatusResponse;
  });

  app.post(
    '/users/two-factor/passkeys/configure-recovery',
    { config: { auth: true, rateLimit: 'user' } },
    async (request) => {
      const body = parseInput(configurePasskeyRecoveryRequestSchema, request.body, 'body');
      await configurePasskeyRecovery(ctx, sessionOf(request).userID, body);
      return {};
    },
  );
}
