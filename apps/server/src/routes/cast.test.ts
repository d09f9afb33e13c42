// Cast over real HTTP (docs/protocol.md#cast): a screen pairs by its code and plays an album, with libsodium
// alone on the screen's side (its key pair, the sealed payload, the album's file keys and streams); the cast
// token reads that album's diff, info and files and nothing else (no other album, no account route: a cast
// token opens no route that no credential opens, besides its own); what ends a cast (revoke-all, one
// device revoked, the album deleted, unshared or left, the pairing session logged out, a week unused); and
// the codes: museum's alphabet, an hour to pair (or CAST_CODE_SECONDS), first pairing wins, wrong and expired
// codes refused, wrong codes counted per account and per address, at most 50 casts per account, 400 for
// malformed input.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import sodiumModule from 'libsodium-wrappers-sumo';

import { sealBoxB64, utf8Bytes } from '@ente/crypto';
import {
  castDataResponseSchema,
  castDevicesResponseSchema,
  castDiffResponseSchema,
  castInfoResponseSchema,
  castPayloadSchema,
  registerCastDeviceResponseSchema,
} from '@ente/protocol';

import type { ApiClient } from '../testing/client.ts';
import { PhotosClient, type Album } from '../testing/photos-client.ts';
import { suiteServer, type TestServer } from '../testing/server.ts';

const photosPackage = 'io.ente.photos.web';
const castPackage = 'io.ente.cast.web';
const MINUTE = 60_000_000;
const DAY = 24 * 60 * MINUTE;

async function sodium() {
  await sodiumModule.ready;
  return sodiumModule;
}
const fromB64 = (s: typeof sodiumModule, text: string) => s.from_base64(text, s.base64_variants.ORIGINAL);
const toB64 = (s: typeof sodiumModule, bytes: Uint8Array) => s.to_base64(bytes, s.base64_variants.ORIGINAL);

/** A screen as Ente's cast page is one: a key pair made in the page, no account, no client package. */
class Screen {
  readonly server: TestServer;
  readonly keys: { publicKey: Uint8Array; privateKey: Uint8Array };
  code = '';

  private constructor(server: TestServer, keys: { publicKey: Uint8Array; privateKey: Uint8Array }) {
    this.server = server;
    this.keys = keys;
  }

  static async register(server: TestServer): Promise<Screen> {
    const s = await sodium();
    const screen = new Screen(server, s.crypto_box_keypair());
    const answer = await screen.call('POST', '/cast/device-info', { publicKey: toB64(s, screen.keys.publicKey) });
    assert.equal(answer.status, 200, answer.text);
    screen.code = registerCastDeviceResponseSchema.parse(answer.body).deviceCode;
    return screen;
  }

  /** Ente's cast page sends its package on its public calls; on a cast-token call, only the token (`headers`). */
  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = { 'X-Client-Package': castPackage },
  ) {
    const response = await fetch(new URL(path, this.server.url), {
      method,
      redirect: 'manual',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    // The object store's routes answer S3's XML.
    const json = response.headers.get('content-type')?.includes('json') && text !== '';
    return { status: response.status, text, body: json ? (JSON.parse(text) as Record<string, unknown>) : {}, response };
  }

  poll() {
    return this.call('GET', `/cast/cast-data/${this.code}`);
  }

  /** Polls once and opens the payload with crypto_box_seal_open and the page's key pair, nothing else. */
  async openPayload() {
    const polled = await this.poll();
    assert.equal(polled.status, 200, polled.text);
    const { encCastData } = castDataResponseSchema.parse(polled.body);
    assert.ok(encCastData, 'the payload is there once the sender paired');
    const s = await sodium();
    const opened = s.crypto_box_seal_open(fromB64(s, encCastData), this.keys.publicKey, this.keys.privateKey);
    return castPayloadSchema.parse(JSON.parse(s.to_string(opened)));
  }

  /** A cast-token route as the page calls it: the token alone in the header. */
  withToken(path: string, castToken: string) {
    return this.call('GET', path, undefined, { 'X-Cast-Access-Token': castToken });
  }

  /** A file's object through the 307, the token in the query (the redirect must not carry a header). */
  async object(fileID: number, kind: 'preview' | 'download', castToken: string): Promise<Uint8Array> {
    const redirect = await this.call('GET', `/cast/files/${kind}/${String(fileID)}?castToken=${castToken}`);
    assert.equal(redirect.status, 307, redirect.text);
    const location = new URL(redirect.response.headers.get('location') ?? '', this.server.url);
    const object = await fetch(location);
    assert.equal(object.status, 200);
    return new Uint8Array(await object.arrayBuffer());
  }
}

/** What a sender does (the photos app, next): read the key by code, seal the payload to it, post it. */
async function pair(sender: PhotosClient, code: string, album: Album) {
  const key = await sender.api.get<{ publicKey: string }>(`/cast/device-info/${code.toLowerCase()}`);
  assert.equal(key.status, 200, key.text);
  const castToken = `cast_${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')}`;
  const payload = JSON.stringify({ castToken, collectionID: album.id, collectionKey: album.key });
  const posted = await sender.api.post('/cast/cast-data', {
    deviceCode: code,
    collectionID: album.id,
    castToken,
    encPayload: await sealBoxB64(utf8Bytes(payload), key.body.publicKey),
  });
  assert.equal(posted.status, 200, posted.text);
  assert.deepEqual(posted.body, {});
  return castToken;
}

/** A pairing post with a payload nobody opens (the refusals): `castToken` from `tokenLetter`. */
function postPairing(sender: PhotosClient, deviceCode: string, collectionID: number, tokenLetter: string) {
  return sender.api.post('/cast/cast-data', {
    deviceCode,
    collectionID,
    castToken: `cast_${tokenLetter.repeat(22)}`,
    encPayload: Buffer.alloc(100).toString('base64'),
  });
}

const original = (fill: number) => ({
  bytes: new Uint8Array(3000).fill(fill),
  thumbnail: new Uint8Array(200).fill(fill + 1),
  metadata: { title: `photo-${String(fill)}.jpg`, fileType: 0, creationTime: 1, modificationTime: 1 },
});

describe('cast over HTTP', () => {
  const { server, api } = suiteServer();
  const storeOrigin = () => new URL(server.url).origin;
  const newSender = () => PhotosClient.signUp(api, server.mail, storeOrigin());

  async function castAlbum() {
    const owner = await newSender();
    const album = await owner.createAlbum('living room');
    const file = await owner.addFile(album, original(7));
    const screen = await Screen.register(server);
    const castToken = await pair(owner, screen.code, album);
    return { owner, album, file, screen, castToken };
  }

  test('a screen pairs by its code; the payload opens with libsodium alone; the token plays the album', async () => {
    const owner = await newSender();
    const album = await owner.createAlbum('living room');
    const uploaded = await owner.addFile(album, original(7));
    const screen = await Screen.register(server);
    assert.match(screen.code, /^[A-NP-Z][A-NP-Z1-9]{5}$/, 'museum’s alphabet: no O, no 0, a letter first');
    assert.deepEqual((await screen.poll()).body, { encCastData: null });

    const castToken = await pair(owner, screen.code, album);
    const payload = await screen.openPayload();
    assert.deepEqual(payload, { castToken, collectionID: album.id, collectionKey: album.key });

    const s = await sodium();
    const diff = await screen.withToken('/cast/diff?sinceTime=0', castToken);
    assert.equal(diff.status, 200, diff.text);
    const { diff: files, hasMore } = castDiffResponseSchema.parse(diff.body);
    assert.equal(hasMore, false);
    assert.deepEqual(
      files.map((entry) => [entry.id, entry.isDeleted]),
      [[uploaded.file.id, false]],
    );
    const [entry] = files;
    assert.ok(entry);
    assert.equal(entry.magicMetadata, undefined);
    // The screen opens the file with the album key from the payload: libsodium's box and secretstream.
    const fileKey = s.crypto_secretbox_open_easy(
      fromB64(s, entry.encryptedKey),
      fromB64(s, entry.keyDecryptionNonce),
      fromB64(s, payload.collectionKey),
    );
    const openStream = (bytes: Uint8Array, header: string) => {
      const state = s.crypto_secretstream_xchacha20poly1305_init_pull(fromB64(s, header), fileKey);
      const pulled = s.crypto_secretstream_xchacha20poly1305_pull(state, bytes, null);
      assert.ok(pulled, 'the stream opens');
      return pulled.message;
    };
    const thumbnail = await screen.object(entry.id, 'preview', castToken);
    assert.deepEqual(openStream(thumbnail, entry.thumbnail.decryptionHeader), uploaded.original.thumbnail);
    const bytes = await screen.object(entry.id, 'download', castToken);
    assert.deepEqual(openStream(bytes, entry.file.decryptionHeader), uploaded.original.bytes);
    const metadata = openStream(fromB64(s, entry.metadata.encryptedData ?? ''), entry.metadata.decryptionHeader);
    assert.equal((JSON.parse(s.to_string(metadata)) as { title: string }).title, 'photo-7.jpg');

    const info = await screen.withToken('/cast/info', castToken);
    assert.equal(info.status, 200, info.text);
    const { collection } = castInfoResponseSchema.parse(info.body);
    assert.equal(collection.id, album.id);
    assert.equal(collection.owner.email, '', 'the screen is not told whose album it is');
    assert.deepEqual(collection.sharees, []);

    // The token also works in the query on every cast route, as museum reads it.
    assert.equal((await screen.call('GET', `/cast/diff?castToken=${castToken}`)).status, 200);

    // A new photo shows in a later round's diff.
    const later = await owner.addFile(album, original(9));
    const cursor = entry.updationTime;
    const next = castDiffResponseSchema.parse(
      (await screen.withToken(`/cast/diff?sinceTime=${cursor}`, castToken)).body,
    );
    assert.deepEqual(
      next.diff.map((file) => file.id),
      [later.file.id],
    );

    const devices = castDevicesResponseSchema.parse((await owner.api.get('/cast/device-info')).body).devices;
    assert.deepEqual(
      devices.map((device) => device.collectionID),
      [album.id],
    );
    assert.equal(devices[0]?.deviceIP, '127.0.0.1');
  });

  test('first pairing wins: a paired code is closed to key reads and to another pairing', async () => {
    const { screen, album } = await castAlbum();
    const other = await newSender();
    const theirs = await other.createAlbum('not yours');
    assert.equal((await other.api.get(`/cast/device-info/${screen.code}`)).status, 404);
    const hijack = await postPairing(other, screen.code, theirs.id, 'x');
    assert.equal(hijack.status, 404, hijack.text);
    assert.equal(hijack.body.code, 'NOT_FOUND');
    // The screen still gets the first sender's payload.
    assert.equal((await screen.openPayload()).collectionID, album.id);
  });

  test('a sender may cast only an album they own or have shared with them', async () => {
    const [owner, sharee, stranger] = [await newSender(), await newSender(), await newSender()];
    const album = await owner.createAlbum('family');
    await owner.shareAlbum(album, sharee.email);
    const screen = await Screen.register(server);
    const refused = await postPairing(stranger, screen.code, album.id, 's');
    assert.equal(refused.status, 404, refused.text);
    assert.equal((await postPairing(sharee, screen.code, album.id, 'y')).status, 200);
  });

  test('the cast token reads its album only, and no account route', async () => {
    const { owner, album, screen, castToken, file } = await castAlbum();
    const elsewhere = await owner.createAlbum('elsewhere');
    const hidden = await owner.addFile(elsewhere, original(11));
    for (const kind of ['preview', 'download']) {
      const answer = await screen.withToken(`/cast/files/${kind}/${String(hidden.file.id)}`, castToken);
      assert.equal(answer.status, 404, `${kind} of another album: ${answer.text}`);
    }
    const diff = castDiffResponseSchema.parse((await screen.withToken('/cast/diff', castToken)).body);
    assert.deepEqual(
      diff.diff.map((entry) => entry.id),
      [file.file.id],
    );

    // Without a token, and with one that is not a cast token: museum's 401 bodies.
    assert.deepEqual((await screen.call('GET', '/cast/diff')).body, { error: 'cast access token missing' });
    for (const wrong of [owner.account.token, `cast_${'z'.repeat(22)}`, 'x'.repeat(500)]) {
      const answer = await screen.withToken('/cast/diff', wrong);
      assert.equal(answer.status, 401, answer.text);
      assert.deepEqual(answer.body, { error: 'invalid token' });
    }

    // Every route of the server answers the cast token (as X-Auth-Token, ?token=, X-Cast-Access-Token and
    // ?castToken=) exactly as it answers no credential at all, except the four routes the token is for.
    const castRoutes = [
      'GET /cast/diff',
      'GET /cast/info',
      'GET /cast/files/preview/:fileID',
      'GET /cast/files/download/:fileID',
    ];
    const send = (route: string, credentials: boolean) => {
      const [method = 'GET', pattern = '/'] = route.split(' ');
      const path = pattern.replace(/:\w+/g, String(file.file.id)).replace('*', 'x');
      const query = credentials
        ? `?token=${castToken}&castToken=${castToken}&collectionID=${String(album.id)}`
        : `?collectionID=${String(album.id)}`;
      const headers: Record<string, string> = { 'X-Client-Package': photosPackage, 'Content-Type': 'application/json' };
      if (credentials) Object.assign(headers, { 'X-Auth-Token': castToken, 'X-Cast-Access-Token': castToken });
      return screen.call(method, path + query, method === 'GET' ? undefined : {}, headers);
    };
    for (const route of server.app.routeList) {
      const [withToken, without] = [await send(route, true), await send(route, false)];
      if (castRoutes.includes(route)) {
        assert.ok(withToken.status === 200 || withToken.status === 307, `${route}: ${withToken.text}`);
        assert.equal(without.status, 401, route);
      } else {
        assert.equal(withToken.status, without.status, `${route}: ${withToken.text} / ${without.text}`);
      }
    }
  });

  describe('what ends a cast', () => {
    async function assertEnded(screen: Screen, castToken: string, what: string) {
      for (const path of ['/cast/diff', '/cast/info']) {
        const answer = await screen.withToken(path, castToken);
        assert.equal(answer.status, 401, `${what}: ${path} ${answer.text}`);
        assert.deepEqual(answer.body, { error: 'invalid token' });
      }
    }

    test('revoke-all: every cast of the account, and the screen’s code', async () => {
      const { owner, album, screen, castToken } = await castAlbum();
      const second = await Screen.register(server);
      const secondToken = await pair(owner, second.code, album);
      const revoked = await owner.api.delete('/cast/revoke-all-tokens');
      assert.equal(revoked.status, 200, revoked.text);
      assert.deepEqual(revoked.body, {});
      await assertEnded(screen, castToken, 'revoke-all');
      await assertEnded(second, secondToken, 'revoke-all');
      assert.equal((await screen.poll()).status, 404, 'the screen goes back to pairing');
      assert.deepEqual((await owner.api.get('/cast/device-info')).body, { devices: [] });
      // Museum's trailing-slash form.
      assert.equal((await owner.api.delete('/cast/revoke-all-tokens/')).status, 200);
    });

    test('one device revoked; another account’s revocation changes nothing', async () => {
      const { owner, screen, castToken } = await castAlbum();
      const [device] = castDevicesResponseSchema.parse((await owner.api.get('/cast/device-info')).body).devices;
      assert.ok(device);
      const stranger = await newSender();
      assert.equal((await stranger.api.delete(`/cast/device-info/${device.deviceID}`)).status, 200);
      assert.equal((await screen.withToken('/cast/diff', castToken)).status, 200);
      assert.equal((await stranger.api.delete('/cast/revoke-all-tokens')).status, 200);
      assert.equal((await screen.withToken('/cast/diff', castToken)).status, 200);
      assert.equal((await owner.api.delete(`/cast/device-info/${device.deviceID}`)).status, 200);
      await assertEnded(screen, castToken, 'device revoked');
    });

    test('the album deleted', async () => {
      const { owner, album, screen, castToken } = await castAlbum();
      const deleted = await owner.api.delete(`/collections/v3/${String(album.id)}`, { query: { keepFiles: 'false' } });
      assert.equal(deleted.status, 200, deleted.text);
      await assertEnded(screen, castToken, 'album deleted');
    });

    test('unshared from the caster, or left by them; sharing again does not bring the cast back', async () => {
      const [owner, sharee] = [await newSender(), await newSender()];
      const album = await owner.createAlbum('shared');
      await owner.addFile(album, original(3));
      await owner.shareAlbum(album, sharee.email);
      const [shared] = await sharee.albums();
      assert.ok(shared);
      const screen = await Screen.register(server);
      const castToken = await pair(sharee, screen.code, shared);
      assert.equal((await screen.withToken('/cast/diff', castToken)).status, 200);
      const unshared = await owner.api.post('/collections/unshare', { collectionID: album.id, email: sharee.email });
      assert.equal(unshared.status, 200, unshared.text);
      await assertEnded(screen, castToken, 'unshared');
      await owner.shareAlbum(album, sharee.email);
      await assertEnded(screen, castToken, 'shared again');

      const again = await Screen.register(server);
      const secondToken = await pair(sharee, again.code, shared);
      assert.equal((await again.withToken('/cast/diff', secondToken)).status, 200);
      assert.equal((await sharee.api.post(`/collections/leave/${String(album.id)}`)).status, 200);
      await assertEnded(again, secondToken, 'left');
    });

    test('the session that paired it logged out', async () => {
      const { owner, screen, castToken } = await castAlbum();
      assert.equal((await owner.api.post('/users/logout')).status, 200);
      await assertEnded(screen, castToken, 'logged out');
    });

    test('a week unused; used, it lives on', async () => {
      const { screen, castToken } = await castAlbum();
      const idle = await castAlbum();
      for (let day = 0; day < 8; day++) {
        server.clock.advance(DAY);
        assert.equal((await screen.withToken('/cast/diff', castToken)).status, 200, `day ${String(day)}`);
      }
      await assertEnded(idle.screen, idle.castToken, 'idle for 8 days');
    });
  });

  describe('codes', () => {
    test('an expired, unknown or malformed code is refused', async () => {
      const sender = await newSender();
      const album = await sender.createAlbum('later');
      const screen = await Screen.register(server);
      server.clock.advance(61 * MINUTE);
      const poll = await screen.poll();
      assert.equal(poll.status, 404);
      assert.deepEqual(poll.body, { code: 'NOT_FOUND', message: 'active code not found' });
      assert.deepEqual((await sender.api.get(`/cast/device-info/${screen.code}`)).body, {
        code: 'NOT_FOUND',
        message: 'code not found',
      });
      const late = await postPairing(sender, screen.code, album.id, 'l');
      assert.equal(late.status, 404, late.text);
      // The screen registers again and gets a new code.
      const fresh = await Screen.register(server);
      assert.notEqual(fresh.code, screen.code);

      assert.equal((await sender.api.get('/cast/device-info/ZZZZZZ')).status, 404);
      for (const malformed of ['%00', 'AB%20C!', 'x'.repeat(20)]) {
        const answer = await sender.api.get(`/cast/device-info/${malformed}`);
        assert.equal(answer.status, 400, `${malformed}: ${answer.text}`);
        assert.equal(answer.body.code, 'BAD_REQUEST');
        assert.equal((await screen.call('GET', `/cast/cast-data/${malformed}`)).status, 400);
      }
    });

    test('malformed bodies and queries are 400 with a message', async () => {
      const sender = await newSender();
      const album = await sender.createAlbum('bodies');
      const screen = await Screen.register(server);
      const refusals: [string, Awaited<ReturnType<ApiClient['get']>>][] = [
        ['publicKey', await api.post('/cast/device-info', { publicKey: Buffer.alloc(31).toString('base64') })],
        ['publicKey', await api.post('/cast/device-info/', {})],
        [
          'castToken',
          await sender.api.post('/cast/cast-data', {
            deviceCode: screen.code,
            collectionID: album.id,
            castToken: 'short',
            encPayload: Buffer.alloc(100).toString('base64'),
          }),
        ],
        [
          'encPayload',
          await sender.api.post('/cast/cast-data', {
            deviceCode: screen.code,
            collectionID: album.id,
            castToken: `cast_${'q'.repeat(22)}`,
            encPayload: 'not base64!',
          }),
        ],
        [
          'encPayload',
          await sender.api.post('/cast/cast-data/', {
            deviceCode: screen.code,
            collectionID: album.id,
            castToken: `cast_${'q'.repeat(22)}`,
            encPayload: Buffer.alloc(48).toString('base64'),
          }),
        ],
        [
          'collectionID',
          await sender.api.post('/cast/cast-data', {
            deviceCode: screen.code,
            collectionID: '1',
            castToken: `cast_${'q'.repeat(22)}`,
            encPayload: Buffer.alloc(100).toString('base64'),
          }),
        ],
        ['deviceID', await sender.api.delete('/cast/device-info/not-a-uuid')],
      ];
      for (const [field, answer] of refusals) {
        assert.equal(answer.status, 400, `${field}: ${answer.text}`);
        assert.equal(answer.body.code, 'BAD_REQUEST');
        assert.match(answer.body.message ?? '', new RegExp(field));
      }
      const { castToken } = await castAlbum();
      const query = await screen.withToken('/cast/diff?sinceTime=abc', castToken);
      assert.equal(query.status, 400, 'museum answers 500 here');
      assert.match(String(query.body.message), /sinceTime/);
      const fileID = await screen.withToken('/cast/files/preview/abc', castToken);
      assert.equal(fileID.status, 400, fileID.text);
    });

    test('wrong codes count per account: past 20 an hour even a right code is refused', async () => {
      const sender = await newSender();
      const screen = await Screen.register(server);
      for (let i = 0; i < 20; i++) {
        const answer = await sender.api.get(`/cast/device-info/WRONG${String(i)}`);
        assert.equal(answer.status, 404, answer.text);
      }
      const refused = await sender.api.get(`/cast/device-info/${screen.code}`);
      assert.equal(refused.status, 429, refused.text);
      assert.deepEqual(refused.body, { error: 'Rate limit breached, try later' });
      // Another account is not held back; the hour over, this one is not either.
      assert.equal((await (await newSender()).api.get(`/cast/device-info/${screen.code}`)).status, 200);
      server.clock.advance(60 * MINUTE);
      const screenAgain = await Screen.register(server);
      assert.equal((await sender.api.get(`/cast/device-info/${screenAgain.code}`)).status, 200);
    });

    test('at most 50 live casts per account: of two pairings at the 50th, one passes', async () => {
      const sender = await newSender();
      const album = await sender.createAlbum('many');
      const userID = sender.account.userID;
      await server.sql(
        `INSERT INTO casting (id, code, public_key, ip, collection_id, cast_user, session_hash, token_hash,
           encrypted_payload, created_at, paired_at, last_used_at)
         SELECT gen_random_uuid(), 'FILL' || n || '${String(userID)}', 'k', '127.0.0.1', ${String(album.id)}, ${String(userID)},
           'h', 't' || n || '-${String(userID)}', 'p', 1, 1, ${String(server.clock.nowMicros())}
         FROM generate_series(1, 49) AS n`,
      );
      const [first, second] = [await Screen.register(server), await Screen.register(server)];
      const post = async (screen: Screen) => {
        const key = await sender.api.get<{ publicKey: string }>(`/cast/device-info/${screen.code}`);
        return sender.api.post('/cast/cast-data', {
          deviceCode: screen.code,
          collectionID: album.id,
          castToken: `cast_${screen.code}${'w'.repeat(20)}`,
          encPayload: await sealBoxB64(utf8Bytes('{}'), key.body.publicKey),
        });
      };
      const answers = await Promise.all([post(first), post(second)]);
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 403]);
      const refused = answers.find((answer) => answer.status === 403);
      assert.deepEqual(refused?.body, { code: 'CAST_DEVICE_LIMIT_REACHED', message: 'device limit reached' });
    });
  });
});

describe('cast codes per client address', () => {
  const { server } = suiteServer({ env: { RATE_LIMIT_PER_MINUTE: '3' } });

  test('registrations and wrong codes are limited per address; past the limit a live code is refused too', async () => {
    const live = await Screen.register(server);
    const screens = [live, await Screen.register(server), await Screen.register(server)];
    assert.equal(new Set(screens.map((screen) => screen.code)).size, 3);
    const fourth = await live.call('POST', '/cast/device-info', { publicKey: Buffer.alloc(32).toString('base64') });
    assert.equal(fourth.status, 429, fourth.text);

    assert.equal((await live.poll()).status, 200, 'a live code is not a miss');
    for (const code of ['AAAAAA', 'BBBBBB', 'CCCCCC']) {
      assert.equal((await live.call('GET', `/cast/cast-data/${code}`)).status, 404);
    }
    const refused = await live.poll();
    assert.equal(refused.status, 429, 'the answer to a live code says nothing once the address is over');
    server.clock.advance(MINUTE);
    assert.equal((await live.poll()).status, 200);
  });
});

describe('a shorter code lifetime (CAST_CODE_SECONDS)', () => {
  const { server } = suiteServer({ env: { CAST_CODE_SECONDS: '30' } });

  test('a code lives the seconds set, then is gone as an expired one', async () => {
    const screen = await Screen.register(server);
    server.clock.advance(30_000_000);
    assert.equal((await screen.poll()).status, 200);
    server.clock.advance(1);
    const gone = await screen.poll();
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body, { code: 'NOT_FOUND', message: 'active code not found' });
  });
});
