// Which bodies the server reads (docs/protocol.md#transport): typed JSON, or text/plain with
// X-Client-Package (Ente's web client); any other body is 415 before the route runs and before it
// counts against a rate limit, so a web page of another origin cannot send an e-mail code with a
// "simple" request. Requests without a body pass as before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { signUp, uniqueEmail } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const refusal = { code: 'BAD_REQUEST', message: 'unsupported content type: send the body as application/json' };

describe('request body types', () => {
  // Route limits at their default (10 a minute per address), to see that refusals are not counted.
  const { server, api } = suiteServer({ env: { RATE_LIMIT_PER_MINUTE: '10' } });

  /** A raw request: no header but those given (fetch adds none for a byte body). */
  async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
    const answer = await fetch(new URL(path, server.url), {
      method,
      headers,
      body: body === undefined ? undefined : new TextEncoder().encode(body),
    });
    const text = await answer.text();
    return { status: answer.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  const pkg = { 'X-Client-Package': 'io.ente.auth.web' };
  const refusedHeaders: Record<string, Record<string, string>> = {
    'text/plain from another origin (no X-Client-Package)': {
      Origin: 'https://evil.example',
      'Content-Type': 'text/plain',
    },
    'form-urlencoded': { ...pkg, 'Content-Type': 'application/x-www-form-urlencoded' },
    'multipart/form-data': { ...pkg, 'Content-Type': 'multipart/form-data; boundary=x' },
    'no Content-Type with a body': { ...pkg },
    'no Content-Type and no X-Client-Package': {},
    'an unparsable Content-Type': { ...pkg, 'Content-Type': ';;;' },
  };

  test('POST /users/ott: every other body type is 415, nothing is stored or sent, nothing is counted', async () => {
    const email = uniqueEmail('ct');
    const before = server.mail.messages.length;
    // More refusals than the route's limit of 10 a minute: none of them counts.
    for (let round = 0; round < 2; round++) {
      for (const [name, headers] of Object.entries(refusedHeaders)) {
        const answer = await send('POST', '/users/ott', headers, JSON.stringify({ email, purpose: 'signup' }));
        assert.equal(answer.status, 415, name);
        assert.deepEqual(answer.body, refusal, name);
      }
    }
    assert.equal(server.mail.messages.length, before, 'no mail');
    const rows = await server.sql(`SELECT id FROM otts WHERE email = '${email}'`);
    assert.equal(rows.length, 0, 'no code stored');
    const accepted = await send(
      'POST',
      '/users/ott',
      { ...pkg, 'Content-Type': 'application/json' },
      JSON.stringify({ email, purpose: 'signup' }),
    );
    assert.equal(accepted.status, 200, 'the refusals did not use up the rate limit');
    assert.equal(server.mail.messages.length, before + 1);
  });

  test('other JSON routes refuse the same bodies before their token check and validation', async () => {
    const routes = [
      ['POST', '/users/verify-email', { email: uniqueEmail(), ott: '123456' }],
      ['POST', '/users/srp/create-session', { srpUserID: crypto.randomUUID(), srpA: 'AA' }],
      ['POST', '/users/two-factor/verify', { sessionID: 'x', code: '123456' }],
      ['PUT', '/users/attributes', { keyAttributes: {} }],
      ['POST', '/authenticator/entity', { encryptedData: 'x', header: 'y' }],
    ] as const;
    for (const [method, path, body] of routes) {
      for (const [name, headers] of Object.entries(refusedHeaders)) {
        const answer = await send(method, path, headers, JSON.stringify(body));
        assert.equal(answer.status, 415, `${method} ${path}: ${name}`);
        assert.deepEqual(answer.body, refusal);
      }
    }
  });

  test("JSON with parameters, and Ente's web client's text/plain with X-Client-Package, are read", async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
      const email = uniqueEmail('ct');
      const answer = await send('POST', '/users/ott', { 'Content-Type': type }, JSON.stringify({ email }));
      assert.equal(answer.status, 200, type);
    }
    const email = uniqueEmail('ct');
    const web = await send(
      'POST',
      '/users/ott',
      { ...pkg, 'Content-Type': 'text/plain;charset=UTF-8' },
      JSON.stringify({ email }),
    );
    assert.equal(web.status, 200);
    assert.match(server.mail.lastCode(email), /^\d{6}$/);
  });

  test('a request without a body passes whatever its type says', async () => {
    const account = await signUp(api, server.mail, { srp: false });
    const auth = { ...pkg, 'X-Auth-Token': account.token };
    const sessions = await send('GET', '/users/sessions', { ...auth, 'Content-Type': 'text/html' });
    assert.equal(sessions.status, 200);
    const logout = await send('POST', '/users/logout', auth);
    assert.equal(logout.status, 200);
    assert.deepEqual(logout.body, {});
  });
});
