// E-mail codes at rest (docs/data-at-rest.md): a server on an embedded database in a real folder sends,
// verifies and refuses codes; afterwards no code is anywhere in the database's files (tables, WAL,
// indexes), and the otts table holds keyed hashes that do not match a plain hash of the code.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { buildApp } from '../app.ts';
import { ApiClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { uniqueEmail } from '../testing/flows.ts';
import { CapturingMailer } from '../testing/server.ts';

test('no e-mail code is in the database files, only keyed hashes', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ente-otts-at-rest-'));
  const mail = new CapturingMailer();
  const app = await buildApp(testConfig({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '10000' }), { mailer: mail });
  const codes: string[] = [];
  let stored: { ott_hash: string }[];
  try {
    const api = new ApiClient(await app.listen({ host: '127.0.0.1', port: 0 }));
    for (let i = 0; i < 6; i++) {
      const email = uniqueEmail('at-rest');
      assert.equal((await api.post('/users/ott', { email, purpose: 'signup' })).status, 200);
      const code = mail.lastCode(email);
      codes.push(code);
      // Some are used, some guessed at, some left live.
      if (i % 3 === 0) assert.equal((await api.post('/users/verify-email', { email, ott: code })).status, 200);
      if (i % 3 === 1) await api.post('/users/verify-email', { email, ott: code === '000000' ? '000001' : '000000' });
    }
    stored = await app.ctx.db.selectFrom('otts').select('ott_hash').execute();
  } finally {
    await app.close();
  }
  try {
    assert.equal(stored.length, 4, 'two of six codes were used');
    const plainHashes = new Set(codes.map((code) => createHash('sha256').update(code).digest('base64')));
    for (const { ott_hash } of stored) {
      assert.match(ott_hash, /^[A-Za-z0-9+/]{43}=$/);
      assert.ok(!plainHashes.has(ott_hash), 'a keyed hash, not a plain one');
    }
    const files = (await readdir(dataDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
    assert.ok(files.length > 100, `the database wrote its files (${files.length})`);
    for (const entry of files) {
      const bytes = await readFile(path.join(entry.parentPath, entry.name));
      for (const code of codes) {
        assert.equal(bytes.indexOf(code), -1, `code ${code} found in ${path.relative(dataDir, entry.parentPath)}`);
      }
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
