// Property test: malformed JSON, wrong types, huge values and unknown fields sent to every route, with
// and without a valid token, never produce a 5xx, and the server keeps answering.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import fc from 'fast-check';

import { ApiClient } from '../testing/client.ts';
import { signUp } from '../testing/flows.ts';
import { startTestServer, type TestServer } from '../testing/server.ts';

/** Every route with the fields its body or query has, so generated input hits the validators. */
const routes: Record<string, string[]> = {
  'GET /ping': [],
  'POST /users/ott': ['email', 'purpose', 'mobile', 'client'],
  'POST /users/verify-email': ['email', 'ott', 'source'],
  'PUT /users/attributes': ['keyAttributes'],
  'PUT /users/recovery-key': ['masterKeyEncryptedWithRecoveryKey', 'masterKeyDecryptionNonce'],
  'POST /users/change-email': ['email', 'ott'],
  'GET /users/session-validity/v2': [],
  'GET /users/details/v2': ['memoryCount'],
  'PUT /users/email-mfa': ['isEnabled'],
  'GET /users/public-key': ['email'],
  'POST /users/logout': [],
  'GET /users/sessions': [],
  'DELETE /users/session': ['token'],
  'GET /users/srp/attributes': ['email'],
  'POST /users/srp/setup': ['srpUserID', 'srpSalt', 'srpVerifier', 'srpA'],
  'POST /users/srp/complete': ['setupID', 'srpM1'],
  'POST /users/srp/update': ['setupID', 'srpM1', 'updatedKeyAttr', 'logOutOtherDevices'],
  'POST /users/srp/create-session': ['srpUserID', 'srpA'],
  'POST /users/srp/verify-session': ['sessionID', 'srpUserID', 'srpM1'],
  'GET /users/two-factor/status': [],
  'POST /users/two-factor/setup': [],
  'POST /users/two-factor/enable': ['code', 'encryptedTwoFactorSecret', 'twoFactorSecretDecryptionNonce'],
  'POST /users/two-factor/verify': ['sessionID', 'code'],
  'GET /users/two-factor/recover': ['sessionID', 'twoFactorType'],
  'POST /users/two-factor/remove': ['sessionID', 'secret', 'twoFactorType'],
  'POST /users/two-factor/disable': [],
  'GET /users/accounts-token': [],
  'GET /passkeys': [],
  'PATCH /passkeys/:passkeyID': ['friendlyName'],
  'DELETE /passkeys/:passkeyID': [],
  'POST /passkeys/registration/begin': [],
  'POST /passkeys/registration/finish': ['friendlyName', 'sessionID', 'id', 'rawId', 'type', 'response'],
  'POST /users/two-factor/passkeys/begin': ['sessionID'],
  'POST /users/two-factor/passkeys/finish': ['sessionID', 'ceremonySessionID', 'clientPackage', 'id', 'response'],
  'GET /users/two-factor/passkeys/get-token': ['sessionID'],
  'GET /users/two-factor/recovery-status': [],
  'POST /users/two-factor/passkeys/configure-recovery': ['secret', 'userSecretCipher', 'userSecretNonce'],
  'GET /authenticator/key': [],
  'POST /authenticator/key': ['encryptedKey', 'header'],
  'POST /authenticator/entity': ['encryptedData', 'header'],
  'PUT /authenticator/entity': ['id', 'encryptedData', 'header', 'ifUpdatedAt'],
  'DELETE /authenticator/entity': ['id', 'ifUpdatedAt'],
  'GET /authenticator/entity/diff': ['sinceTime', 'limit'],
};

const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom('', ' ', 'null', '0', '-1', '1e309', 'NaN', '__proto__', 'constructor', '%00', '../../etc/passwd'),
  fc.constantFrom('A'.repeat(684) + '==', 'AAAA'.repeat(200_000), '00000000-0000-4000-8000-000000000000'),
  fc.base64String({ maxLength: 1000 }),
);
const nastyValue = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
);
const bodyFor = (fields: string[]) =>
  fc.oneof(
    fc.record(Object.fromEntries(fields.map((field) => [field, nastyValue])), { requiredKeys: [] }).map(JSON.stringify),
    fc.dictionary(nastyString, nastyValue, { maxKeys: 5 }).map(JSON.stringify),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    fc.string(),
    fc.constantFrom('{', '{"a":', '[', '"', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', ''),
  );
const queryFor = (fields: string[]) =>
  fc.record(
    Object.fromEntries(
      [...fields, 'token', 'x'].map((field) => [field, nastyString.map((value) => value.slice(0, 2000))]),
    ),
    { requiredKeys: [] },
  );

describe('malformed input', () => {
  let server: TestServer;
  let api: ApiClient;
  let token: string;
  before(async () => {
    server = await startTestServer();
    api = new ApiClient(server.url);
    token = (await signUp(api, server.mail, { srp: false })).token;
  });
  after(() => server.close());

  test('the list above covers every route the server has', () => {
    assert.deepEqual([...server.app.routeList].sort(), Object.keys(routes).sort());
  });

  for (const [route, fields] of Object.entries(routes)) {
    const [method, path] = route.split(' ') as [string, string];
    test(`${route}: no input yields a 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(
          bodyFor(fields),
          queryFor(fields),
          fc.boolean(),
          fc.constantFrom('io.ente.auth.web', 'io.ente.photos.web', '', '\u0000', 'x'.repeat(300)),
          fc.constantFrom('text/plain', 'application/json', 'application/octet-stream', 'multipart/form-data'),
          async (rawBody, query, authenticated, clientPackage, contentType) => {
            const answer = await api.call(method, path, {
              rawBody: method === 'GET' ? undefined : rawBody,
              query,
              token: authenticated ? token : null,
              headers: { 'X-Client-Package': clientPackage.replace(/[^\x20-\x7e]/g, ''), 'Content-Type': contentType },
            });
            assert.ok(answer.status < 500, `${route} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
            if (answer.status >= 400) assert.equal(typeof answer.body, 'object', answer.text.slice(0, 200));
          },
        ),
        { numRuns: 25 },
      );
    });
  }

  test('the server is still up', async () => {
    assert.equal((await api.get('/ping')).status, 200);
  });
});
