// The periodic purge removes what can no longer matter and keeps what still can.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { signUp, uniqueEmail } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';
import { purgeExpired } from './maintenance.ts';

const DAY = 86_400_000_000;

describe('purgeExpired', () => {
  const { server, api } = suiteServer();
  const count = async (table: string, where: string) => {
    const [row] = (await server.sql(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)) as { n: string | number }[];
    return Number(row?.n);
  };
  const tokensOf = (userID: number) => count('tokens', `user_id = ${userID}`);
  const codesFor = (email: string) => count('otts', `email = '${email}'`);

  test('a revoked token goes; a live one stays and still works', async () => {
    const kept = await signUp(api, server.mail, { srp: false });
    const revoked = await signUp(api, server.mail, { srp: false });
    await api.post('/users/logout', undefined, { token: revoked.token });
    await purgeExpired(server.app.ctx);
    assert.equal(await tokensOf(revoked.userID), 0);
    assert.equal(await tokensOf(kept.userID), 1);
    assert.equal((await api.get('/users/session-validity/v2', { token: kept.token })).status, 200);
  });

  test('on PGlite (no autovacuum) the planner has statistics from the start', async () => {
    // PostgreSQL's autovacuum keeps them there; the server runs ANALYZE only on PGlite.
    if (server.config.DATABASE_URL) return;
    let analyzed: unknown[] = [];
    for (let tries = 0; tries < 50 && analyzed.length === 0; tries++) {
      analyzed = await server.sql(
        `SELECT relname FROM pg_stat_user_tables WHERE relname = 'authenticator_entity' AND last_analyze IS NOT NULL`,
      );
      if (analyzed.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(analyzed, [{ relname: 'authenticator_entity' }]);
  });

  test('a live code stays', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email });
    await purgeExpired(server.app.ctx);
    assert.equal(await codesFor(email), 1);
  });

  test('an expired code goes', async () => {
    const email = uniqueEmail();
    await api.post('/users/ott', { email });
    server.clock.advance(server.config.OTT_LIFETIME_MINUTES * 60_000_000);
    await purgeExpired(server.app.ctx);
    assert.equal(await codesFor(email), 0);
  });

  test('a token idle for more than 365 days goes', async () => {
    const idle = await signUp(api, server.mail, { srp: false });
    server.clock.advance(366 * DAY);
    await purgeExpired(server.app.ctx);
    assert.equal(await tokensOf(idle.userID), 0);
  });
});
