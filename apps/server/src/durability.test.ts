// Durability: every write the server acknowledged is still there after the server is killed with
// SIGKILL right after the answers and started again on the same data (a PGlite folder by default, the
// PostgreSQL of DATABASE_URL when set). See [Note: PGlite durability] in db/database.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { encryptBlobB64, encryptBoxB64, generateKeyAttributes, generateKeyB64, utf8Bytes } from '@ente/crypto';
import type { EmailAuthorizationResponse, Entity, EntityDiffResponse } from '@ente/protocol';

import { ApiClient, type ApiResponse } from './testing/client.ts';
import { suiteDatabaseUrl } from './testing/config.ts';
import { vectorKek } from './testing/flows.ts';
import { spawnServer, type ServerProcess } from './testing/process.ts';
import { createScratchDatabase } from './testing/server.ts';

describe('acknowledged writes survive kill -9', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ente-durability-'));
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let restarted: ServerProcess | undefined;
  let token: string;
  const sequential: Entity[] = [];
  let concurrent: Entity[];
  let updated: Entity;
  let deleted: Entity;
  let diff: ApiResponse<EntityDiffResponse>;

  before(async () => {
    const suiteDatabase = suiteDatabaseUrl();
    database = suiteDatabase ? await createScratchDatabase(suiteDatabase) : undefined;
    const env = {
      ...(database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir }),
      FIXED_OTTS: 'durable@example.org,123456',
    };
    const first = await spawnServer(env);
    const api = new ApiClient(first.url);
    await api.post('/users/ott', { email: 'durable@example.org', purpose: 'signup' });
    const signup = await api.post<EmailAuthorizationResponse>('/users/verify-email', {
      email: 'durable@example.org',
      ott: '123456',
    });
    assert.ok(signup.body.token, signup.text);
    api.token = token = signup.body.token;
    const keys = await generateKeyAttributes('password', () => Promise.resolve({ ...vectorKek }));
    assert.equal((await api.put('/users/attributes', { keyAttributes: keys.keyAttributes })).status, 200);
    const wrapped = await encryptBoxB64(await generateKeyB64(), keys.masterKey);
    const key = await api.post('/authenticator/key', { encryptedKey: wrapped.encryptedData, header: wrapped.nonce });
    assert.equal(key.status, 200);
    const authKey = await generateKeyB64();
    const blob = (text: string) => encryptBlobB64(utf8Bytes(JSON.stringify(text)), authKey);
    const create = async (body: object) => (await api.post<Entity>('/authenticator/entity', body)).body;

    for (let i = 0; i < 10; i++) sequential.push(await create(await blob(`s${i}`)));
    const bodies = await Promise.all(Array.from({ length: 20 }, (_, i) => blob(`c${i}`)));
    concurrent = await Promise.all(bodies.map(create));
    [updated, deleted] = sequential as [Entity, Entity];
    assert.equal((await api.put('/authenticator/entity', { id: updated.id, ...(await blob('changed')) })).status, 200);
    assert.equal((await api.delete('/authenticator/entity', { query: { id: deleted.id } })).status, 200);
    await first.stop('SIGKILL');

    restarted = await spawnServer(env);
    diff = await new ApiClient(restarted.url).get<EntityDiffResponse>('/authenticator/entity/diff', {
      query: { sinceTime: 0, limit: 5000 },
      token,
    });
  });

  after(async () => {
    await restarted?.stop('SIGKILL');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const survivor = (id: string) => diff.body.diff.find((entity) => entity.id === id);

  test('the token survived', () => {
    assert.equal(diff.status, 200, diff.text);
  });

  test('every entity created one after another survived', () => {
    for (const entity of sequential) assert.ok(survivor(entity.id), `entity ${entity.id}`);
  });

  test('every entity created concurrently survived', () => {
    for (const entity of concurrent) assert.ok(survivor(entity.id), `entity ${entity.id}`);
  });

  test('the update survived', () => {
    assert.ok((survivor(updated.id)?.updatedAt ?? 0) > updated.updatedAt);
  });

  test('the delete survived', () => {
    assert.equal(survivor(deleted.id)?.isDeleted, true);
  });

  test('SIGTERM is a clean exit', async () => {
    assert.ok(restarted);
    assert.equal(await restarted.stop('SIGTERM'), 0);
  });
});
