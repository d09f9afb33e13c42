// Photos over real HTTP (docs/protocol.md#photos): the refusals (no token, malformed input, the quota, a
// stale magic metadata version) and the gallery's other calls. The whole story a client tells (upload,
// list, download and decrypt, share, links, trash) is photos-scripted-client.test.ts, on both stores.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';

import { toB64, utf8Bytes } from '@ente/crypto';
import { featureFlagsResponseSchema, type FeatureFlagsResponse, type UserPlansResponse } from '@ente/protocol';

import { signUp } from '../testing/flows.ts';
import { PhotosClient } from '../testing/photos-client.ts';
import { suiteServer } from '../testing/server.ts';

describe('photos', () => {
  const { server, api } = suiteServer();
  const account = () => PhotosClient.signUp(api, server.mail, new URL(server.url).origin);

  test('refusals: no token 401, malformed input 400, a full quota 426, a stale magic metadata version 409', async () => {
    const owner = await account();
    assert.equal((await owner.api.get('/collections/v2', { token: null })).status, 401);
    const bad = await owner.api.post('/collections', { encryptedKey: 'AAAA', type: 'album' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'BAD_REQUEST');
    const hex = createHash('md5').update('x').digest('hex');
    assert.equal((await owner.api.post('/files/upload-url', { contentLength: 1, contentMD5: hex })).status, 200);
    const tooLarge = await owner.api.post('/files/upload-url', { contentLength: 11 * 1024 ** 3, contentMD5: hex });
    assert.equal(tooLarge.status, 400);
    const overQuota = await owner.api.post('/files/upload-url', { contentLength: 10 * 1024 ** 3, contentMD5: hex });
    assert.equal(overQuota.status, 200, 'the default quota is generous');
    const parts = await owner.api.post('/files/multipart-upload-url', {
      contentLength: 12 * 1024 * 1024,
      partLength: 5 * 1024 * 1024,
      partMd5s: [hex, hex],
    });
    assert.equal(parts.status, 400, 'three parts need three MD5s');

    const album = await owner.createAlbum('meta');
    const made = await owner.addFile(album, { bytes: utf8Bytes('x'), thumbnail: utf8Bytes('t'), metadata: {} });
    const meta = { version: 0, count: 1, data: toB64(utf8Bytes('{}')), header: toB64(new Uint8Array(24)) };
    const put = (version: number) =>
      owner.api.put('/files/public-magic-metadata', {
        metadataList: [{ id: made.file.id, magicMetadata: { ...meta, version } }],
      });
    assert.equal((await put(0)).status, 200);
    assert.equal((await put(0)).status, 409, 'the stored version is 1 now');
    assert.equal((await put(1)).status, 200);
  });

  test("the gallery's other calls: feature flags with nothing hosted, the free plan with the quota", async () => {
    const owner = await account();
    const flags = await owner.api.get<FeatureFlagsResponse>('/remote-store/feature-flags');
    assert.equal(flags.status, 200, flags.text);
    assert.equal(featureFlagsResponseSchema.safeParse(flags.body).success, true);
    assert.equal(flags.body.castUrl, '', "an empty castUrl keeps the client's own cast link");
    const plans = await owner.api.get<UserPlansResponse>('/billing/user-plans');
    assert.equal(plans.status, 200, plans.text);
    assert.deepEqual(plans.body, { freePlan: { storage: 1024 ** 4, duration: 100, period: 'year' }, plans: [] });
    assert.equal((await owner.api.get('/remote-store/feature-flags', { token: null })).status, 401);
  });

  describe('a server whose cast page is set', () => {
    const cast = suiteServer({ env: { CAST_APP_URL: 'https://cast.example.org' } });
    test("the feature flags' castUrl names it (the page Ente's cast dialog tells people to open)", async () => {
      const client = cast.api.as('io.ente.photos.web');
      await signUp(client, cast.server.mail, { srp: false });
      const flags = await client.get<FeatureFlagsResponse>('/remote-store/feature-flags');
      assert.equal(flags.status, 200, flags.text);
      assert.equal(flags.body.castUrl, 'https://cast.example.org');
    });
  });

  describe('a small quota and upload-URL limit', () => {
    const small = suiteServer({ env: { PHOTOS_STORAGE_BYTES: '1000', PHOTOS_UPLOAD_URLS_PER_MINUTE: '3' } });
    test('an upload past the quota and its 50 MB grace is 426; past the limit of upload URLs 429', async () => {
      const client = small.api.as('io.ente.photos.web');
      await signUp(client, small.server.mail, { srp: false });
      const md5 = createHash('md5').update('x').digest('base64');
      const full = await client.post('/files/upload-url', { contentLength: 50 * 1024 * 1024 + 1001, contentMD5: md5 });
      assert.equal(full.status, 426);
      assert.equal((await client.post('/files/upload-url', { contentLength: 1000, contentMD5: md5 })).status, 200);
      assert.equal((await client.post('/files/upload-url', { contentLength: 1, contentMD5: md5 })).status, 200);
      const limited = await client.post('/files/upload-url', { contentLength: 1, contentMD5: md5 });
      assert.equal(limited.status, 429, 'the fourth upload URL of the minute');
      assert.equal(limited.body.error, 'Rate limit breached, try later');
    });
  });
});
