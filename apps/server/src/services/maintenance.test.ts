// The periodic purge removes what can no longer matter and keeps what still can.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiClient } from '../testing/client.ts';
import { signUp, uniqueEmail } from '../testing/flows.ts';
import { startTestServer } from '../testing/server.ts';
import { purgeExpired } from './maintenance.ts';

test('expired codes, revoked and idle tokens go; live ones stay', async () => {
  const server = await startTestServer();
  try {
    const api = new ApiClient(server.url);
    const kept = await signUp(api, server.mail, { srp: false });
    const revoked = await signUp(api, server.mail, { srp: false });
    await api.post('/users/logout', undefined, { token: revoked.token });
    const pending = uniqueEmail();
    await api.post('/users/ott', { email: pending });
    await purgeExpired(server.app.ctx);
    const count = async (table: string) =>
      Number(((await server.sql(`SELECT count(*) AS n FROM ${table}`))[0] as { n: string | number }).n);
    assert.equal(await count('tokens'), 1);
    assert.equal(await count('otts'), 1);
    assert.equal((await api.get('/users/session-validity/v2', { token: kept.token })).status, 200);

    server.clock.advance(366 * 86_400_000_000);
    await purgeExpired(server.app.ctx);
    assert.equal(await count('tokens'), 0);
    assert.equal(await count('otts'), 0);
  } finally {
    await server.close();
  }
});
