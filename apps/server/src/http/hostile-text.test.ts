// The text rule at the routes (docs/protocol.md#conventions): each request that once reached the
// database with a NUL (a 500) or a lone surrogate (stored as U+FFFD, so one address stood for another)
// is now a 400 BAD_REQUEST naming the field, and nothing is stored.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { signUp, startSignUp, type Account } from '../testing/flows.ts';
import { suiteServer } from '../testing/server.ts';

const nul = 'a\u0000@x.org';
const loneSurrogate = 'x\ud800@example.org';

describe('hostile text', () => {
  const { server, api } = suiteServer();
  let account: Account;
  before(async () => {
    account = await signUp(api, server.mail, { srp: false });
  });

  function assertRefused(answer: { status: number; body: { code?: string; message?: string } }, field: string) {
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'BAD_REQUEST');
    assert.match(answer.body.message ?? '', new RegExp(field));
  }

  for (const [name, email] of [
    ['a NUL', nul],
    ['a lone surrogate', loneSurrogate],
    ['a control character', 'a\u0007b@x.org'],
  ] as const) {
    test(`${name} in an e-mail is 400 at every route that takes one`, async () => {
      assertRefused(await api.post('/users/ott', { email, purpose: 'signup' }, { token: null }), 'email');
      assertRefused(await api.post('/users/verify-email', { email, ott: '123456' }, { token: null }), 'email');
      assertRefused(await api.post('/users/change-email', { email, ott: '123456' }, { token: account.token }), 'email');
      const share = { collectionID: 1, email, role: 'VIEWER', encryptedKey: Buffer.alloc(80).toString('base64') };
      assertRefused(await api.post('/collections/share', share, { token: account.token }), 'email');
      assertRefused(
        await api.post('/collections/unshare', { collectionID: 1, email }, { token: account.token }),
        'email',
      );
      // A URL cannot carry a lone surrogate (it is encoded as U+FFFD, and an invalid %-sequence stays as sent).
      if (email === loneSurrogate) return;
      assertRefused(await api.get('/users/public-key', { query: { email }, token: account.token }), 'email');
      assertRefused(await api.get('/users/srp/attributes', { query: { email }, token: null }), 'email');
    });
  }

  test('a NUL, a lone surrogate or a control character in a cast code or key is 400, and no screen is registered', async () => {
    const photos = api.as('io.ente.photos.web');
    const sender = await signUp(photos, server.mail, { srp: false });
    const key = (spoiler: string) => `${Buffer.alloc(32).toString('base64').slice(0, 40)}${spoiler}AA=`;
    for (const spoiler of ['\u0000', '\ud800', '\u0007']) {
      assertRefused(await api.post('/cast/device-info', { publicKey: key(spoiler) }, { token: null }), 'publicKey');
      const pairing = {
        deviceCode: `AB${spoiler}CDE`,
        collectionID: 1,
        castToken: `cast_${'a'.repeat(22)}`,
        encPayload: Buffer.alloc(100).toString('base64'),
      };
      assertRefused(await photos.post('/cast/cast-data', pairing, { token: sender.token }), 'deviceCode');
    }
    assertRefused(await photos.get('/cast/device-info/AB%00CDE', { token: sender.token }), 'deviceCode');
    assertRefused(await api.get('/cast/cast-data/AB%07CDE', { token: null }), 'deviceCode');
    assert.deepEqual(await server.sql('SELECT id FROM casting'), []);
  });

  test('a NUL, a lone surrogate or a control character in a user entity id or type is 400, and nothing is stored', async () => {
    const photos = api.as('io.ente.photos.web');
    const owner = await signUp(photos, server.mail, { srp: false });
    const b64 = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');
    const key = { type: 'location', encryptedKey: b64(48), header: b64(24) };
    assert.equal((await photos.post('/user-entity/key', key, { token: owner.token })).status, 200);
    const data = { encryptedData: b64(40), header: b64(24) };
    for (const spoiler of ['\u0000', '\ud800', '\u0007']) {
      const id = `location_${spoiler}x`;
      assertRefused(
        await photos.post('/user-entity/entity', { type: 'location', id, ...data }, { token: owner.token }),
        'id',
      );
      assertRefused(
        await photos.put('/user-entity/entity', { type: 'location', id, ...data }, { token: owner.token }),
        'id',
      );
      const type = `location${spoiler}`;
      assertRefused(await photos.post('/user-entity/key', { ...key, type }, { token: owner.token }), 'type');
      assertRefused(await photos.post('/user-entity/entity', { type, ...data }, { token: owner.token }), 'type');
      if (spoiler === '\ud800') continue;
      assertRefused(await photos.delete('/user-entity/entity', { query: { id }, token: owner.token }), 'id');
      const query = { type, sinceTime: 0, limit: 10 };
      assertRefused(await photos.get('/user-entity/entity/diff', { query, token: owner.token }), 'type');
    }
    assert.deepEqual(await server.sql(`SELECT id FROM user_entity_data WHERE user_id = ${String(owner.userID)}`), []);
  });

  test('no code was stored nor mailed for a refused address', async () => {
    const before = server.mail.messages.length;
    await api.post('/users/ott', { email: loneSurrogate }, { token: null });
    assert.equal(server.mail.messages.length, before);
    const mangled = await server.sql(`SELECT id FROM otts WHERE email LIKE '%\uFFFD%'`);
    assert.deepEqual(mangled, []);
  });

  test('a NUL in kekHash is 400 and the key attributes stay unset', async () => {
    const attributes = {
      kekSalt: Buffer.alloc(16).toString('base64'),
      opsLimit: 3,
      memLimit: 268435456,
      encryptedKey: Buffer.alloc(48).toString('base64'),
      keyDecryptionNonce: Buffer.alloc(24).toString('base64'),
      publicKey: Buffer.alloc(32).toString('base64'),
      encryptedSecretKey: Buffer.alloc(48).toString('base64'),
      secretKeyDecryptionNonce: Buffer.alloc(24).toString('base64'),
      kekHash: 'hash\u0000',
    };
    const newcomer = await startSignUp(api, server.mail);
    assertRefused(
      await api.put('/users/attributes', { keyAttributes: attributes }, { token: newcomer.token }),
      'kekHash',
    );
    const validity = await api.get('/users/session-validity/v2', { token: newcomer.token });
    assert.equal(validity.body.hasSetKeys, false);
  });
});
