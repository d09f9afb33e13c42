// Durability (issue 3 §9): every write the server acknowledged is still there after the server is
// killed with SIGKILL right after the answers and started again on the same data (a PGlite folder by
// default, the PostgreSQL of DATABASE_URL when set).
import { encryptBlobB64, encryptBoxB64, generateKeyAttributes, generateKeyB64, utf8Bytes } from '@ente/crypto';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ApiClient } from './testing/client.ts';
import { vectorKek } from './testing/flows.ts';
import { spawnServer } from './testing/process.ts';
import { createScratchDatabase } from './testing/server.ts';

test('acknowledged writes survive kill -9', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ente-durability-'));
  const database = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
  const env = {
    ...(database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir }),
    FIXED_OTTS: 'durable@example.org,123456',
  };
  try {
    let server = await spawnServer(env);
    let api = new ApiClient(server.url);
    await api.post('/users/ott', { email: 'durable@example.org', purpose: 'signup' });
    const token = (await api.post('/users/verify-email', { email: 'durable@example.org', ott: '123456' })).body.token;
    api.token = token;
    const keys = await generateKeyAttributes('password', async () => ({ ...vectorKek }));
    assert.equal((await api.put('/users/attributes', { keyAttributes: keys.keyAttributes })).status, 200);
    const wrapped = await encryptBoxB64(await generateKeyB64(), keys.masterKey);
    assert.equal(
      (await api.post('/authenticator/key', { encryptedKey: wrapped.encryptedData, header: wrapped.nonce })).status,
      200,
    );
    const authKey = await generateKeyB64();
    const blob = (text: string) => encryptBlobB64(utf8Bytes(JSON.stringify(text)), authKey);

    const sequential = [];
    for (let i = 0; i < 10; i++) sequential.push((await api.post('/authenticator/entity', await blob(`s${i}`))).body);
    const bodies = await Promise.all(Array.from({ length: 20 }, (_, i) => blob(`c${i}`)));
    const concurrent = (await Promise.all(bodies.map((body) => api.post('/authenticator/entity', body)))).map(
      (answer) => answer.body,
    );
    const updated = sequential[0];
    assert.equal((await api.put('/authenticator/entity', { id: updated.id, ...(await blob('changed')) })).status, 200);
    const deleted = sequential[1];
    assert.equal((await api.delete('/authenticator/entity', { query: { id: deleted.id } })).status, 200);
    await server.stop('SIGKILL');

    server = await spawnServer(env);
    api = new ApiClient(server.url);
    api.token = token;
    const diff = await api.get('/authenticator/entity/diff', { query: { sinceTime: 0, limit: 5000 } });
    assert.equal(diff.status, 200, `the token survived too: ${diff.text}`);
    const byId = new Map(diff.body.diff.map((entity: { id: string }) => [entity.id, entity]));
    for (const entity of [...sequential, ...concurrent]) assert.ok(byId.has(entity.id), `entity ${entity.id} survived`);
    assert.equal((byId.get(deleted.id) as { isDeleted: boolean }).isDeleted, true);
    assert.ok((byId.get(updated.id) as { updatedAt: number }).updatedAt > updated.updatedAt);
    assert.equal(await server.stop('SIGTERM'), 0, 'SIGTERM is a clean exit');
  } finally {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
