/** @jest-environment node */
// The public album's data source against msw handlers that answer /public-collection/* as the server does
// (docs/protocol.md#public-links), with rows encrypted here as the owner's client writes them and the crypto API
// in-process (and IndexedDB, where the shell reads the API origin, from fake-indexeddb).
import 'fake-indexeddb/auto';

import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { cryptoWorker, type CryptoRemote } from '@ente/crypto/client.ts';
import { setAppName } from '@ente/shared/app-name.ts';

import { base58, shareableLink } from '../library/link-url.ts';
import { apiOrigin } from '../library/testing/fake-photos-server.ts';
import { parsePublicLink, type PublicLinkParts } from './link.ts';
import { publicAlbum, publicAlbumErrorOf } from './public-album.ts';

const msw = setupServer();
let crypto: CryptoRemote;
const token = 'ABCDEFGHJK';
const password = 'correct horse';
/** Small Argon2id limits, within the client's bounds, so that the tests run quickly. */
const opsLimit = 1;
const memLimit = 8 * 1024;
const nonce = Buffer.alloc(16, 7).toString('base64');

interface Fake {
  key: string;
  /** The link's settings in /info's `publicURLs`. */
  link: Record<string, unknown>;
  rows: Record<string, unknown>[];
  pageSize: number;
  passHash?: string;
  jwt: string;
  /** Headers of every request, by path. */
  seen: { path: string; headers: Record<string, string | null>; query: string }[];
  /** An answer that replaces every /info answer (an error). */
  infoAnswer?: () => Response;
}
let fake: Fake;

const utf8B64 = (text: string) => Buffer.from(text).toString('base64');

async function addFile(title: string, creationTime: number, id: number, updationTime: number) {
  const fileKey = await crypto.generateKey();
  const [boxed] = await crypto.boxFileKeys([{ id, key: fileKey }], fake.key);
  const metadata = await crypto.encryptBlobText(
    JSON.stringify({ title, creationTime, modificationTime: creationTime, fileType: 0 }),
    fileKey,
  );
  const header = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  fake.rows.push({
    id,
    ownerID: 9,
    collectionID: 40,
    collectionOwnerID: 9,
    encryptedKey: boxed!.encryptedKey,
    keyDecryptionNonce: boxed!.keyDecryptionNonce,
    file: { decryptionHeader: header, size: 100 },
    thumbnail: { decryptionHeader: header, size: 10 },
    metadata: { encryptedData: metadata.encryptedData, decryptionHeader: metadata.header, size: 0 },
    isDeleted: false,
    updationTime,
    info: { fileSize: 100, thumbSize: 10 },
  });
  return fileKey;
}

const record = (request: Request) => {
  const url = new URL(request.url);
  fake.seen.push({
    path: url.pathname,
    headers: {
      token: request.headers.get('X-Auth-Access-Token'),
      jwt: request.headers.get('X-Auth-Access-Token-JWT'),
    },
    query: url.search,
  });
};

const refused = (status: number, error: string) => HttpResponse.json({ error }, { status });

function handlers() {
  return [
    http.get(`${apiOrigin}/public-collection/info`, async ({ request }) => {
      record(request);
      if (fake.infoAnswer) return fake.infoAnswer();
      if (request.headers.get('X-Auth-Access-Token') !== token) return refused(401, 'invalid token');
      const name = await crypto.encryptBox(utf8B64('Summer ☀'), fake.key);
      return HttpResponse.json({
        collection: {
          id: 40,
          owner: { id: 9, email: '', name: '', role: 'OWNER' },
          encryptedKey: 'owner-box',
          keyDecryptionNonce: 'owner-nonce',
          name: '',
          encryptedName: name.encryptedData,
          nameDecryptionNonce: name.nonce,
          type: 'album',
          attributes: { version: 0 },
          sharees: [],
          publicURLs: [fake.link],
          updationTime: 5,
          app: 'photos',
        },
        referralCode: '',
      });
    }),
    http.get(`${apiOrigin}/public-collection/diff`, ({ request }) => {
      record(request);
      if (fake.passHash && request.headers.get('X-Auth-Access-Token-JWT') !== fake.jwt) {
        return refused(401, 'password required');
      }
      const since = Number(new URL(request.url).searchParams.get('sinceTime'));
      const later = fake.rows.filter((row) => (row.updationTime as number) > since);
      return HttpResponse.json({ diff: later.slice(0, fake.pageSize), hasMore: later.length > fake.pageSize });
    }),
    http.post(`${apiOrigin}/public-collection/verify-password`, async ({ request }) => {
      record(request);
      const { passHash } = (await request.json()) as { passHash: string };
      if (passHash !== fake.passHash) return HttpResponse.json({}, { status: 401 });
      return HttpResponse.json({ jwtToken: fake.jwt });
    }),
  ];
}

beforeAll(async () => {
  setAppName('photos');
  msw.listen({ onUnhandledRequest: 'error' });
  crypto = await cryptoWorker();
});
beforeEach(async () => {
  fake = {
    key: await crypto.generateKey(),
    link: {
      enableDownload: true,
      enableCollect: false,
      enableComment: false,
      enableJoin: false,
      passwordEnabled: false,
    },
    rows: [],
    pageSize: 2,
    jwt: 'jwt-of-the-link',
    seen: [],
  };
  msw.resetHandlers(...handlers());
});
afterAll(() => msw.close());

const link = (key = fake.key): PublicLinkParts => ({ accessToken: token, collectionKey: key });

async function withPassword() {
  fake.passHash = await crypto.argon2idKey(password, nonce, opsLimit, memLimit);
  fake.link = { ...fake.link, passwordEnabled: true, nonce, opsLimit, memLimit };
}

test('the link as shareableLink writes it (base58 key), and as Ente’s oldest links (hex key), gives token and key', () => {
  const key = Buffer.from(Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 0 : i * 7))).toString('base64');
  const url = shareableLink(`https://photos.example/shared-albums?t=${token}`, key) ?? '';
  expect(parsePublicLink(url)).toEqual({ accessToken: token, collectionKey: key });
  const hex = Buffer.from(key, 'base64').toString('hex');
  expect(parsePublicLink(`https://albums.example/?t=${token}#${hex}`)).toEqual({
    accessToken: token,
    collectionKey: key,
  });
  // No token, no key, a key that is not base58, one of the wrong length: not a link.
  expect(parsePublicLink(url.replace(`t=${token}`, ''))).toBeUndefined();
  expect(parsePublicLink(url.split('#')[0]!)).toBeUndefined();
  expect(parsePublicLink(`${url.split('#')[0]!}#0OIl`)).toBeUndefined();
  expect(parsePublicLink(`${url.split('#')[0]!}#${base58(new Uint8Array(31).fill(5))}`)).toBeUndefined();
  // A fragment far longer than a key is refused before it is decoded (the decoding is quadratic: seconds here):
  // not one of its digits is looked up in the alphabet.
  const lookups = jest.spyOn(String.prototype, 'indexOf');
  try {
    expect(parsePublicLink(`${url.split('#')[0]!}#${'z'.repeat(100_000)}`)).toBeUndefined();
    expect(lookups.mock.calls.length).toBeLessThan(100);
  } finally {
    lookups.mockRestore();
  }
});

test('an album without a password: its name opened with the link’s key, every diff page opened, newest first', async () => {
  await addFile('old.jpg', 1_000, 1, 10);
  await addFile('new.jpg', 3_000, 2, 11);
  await addFile('mid.jpg', 2_000, 3, 12);
  await addFile('gone.jpg', 4_000, 4, 13);
  fake.rows.push({ ...fake.rows.find((row) => row.id === 4)!, isDeleted: true, updationTime: 14 });
  const album = publicAlbum(link());
  await expect(album.info()).resolves.toEqual({ name: 'Summer ☀', enableDownload: true, passwordEnabled: false });
  const files = await album.files();
  expect(files.map((file) => file.metadata.title)).toEqual(['new.jpg', 'mid.jpg', 'old.jpg']);
  expect(files[0]).toMatchObject({ id: 2, fileSize: 100, fileHeader: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
  // Three pages of two (the cursor is the last row's time); the token as a header every time, never a JWT.
  const diffs = fake.seen.filter((each) => each.path === '/public-collection/diff');
  expect(diffs.map((each) => each.query)).toEqual(['?sinceTime=0', '?sinceTime=11', '?sinceTime=13']);
  expect(fake.seen.every((each) => each.headers.token === token && each.headers.jwt === null)).toBe(true);
  // The media loader's routes: the public ones, credentials in the query, never in the thumbs cache.
  expect(album.mediaRoutes.cacheThumbnails).toBe(false);
  await expect(album.mediaRoutes.objectURL('preview', 2)).resolves.toBe(
    `${apiOrigin}/public-collection/files/preview/2?accessToken=${token}`,
  );
});

test('a file whose key or metadata does not open is left out; the others show', async () => {
  await addFile('good.jpg', 1_000, 1, 10);
  await addFile('bad.jpg', 2_000, 2, 11);
  fake.rows[1] = { ...fake.rows[1], encryptedKey: Buffer.alloc(48, 1).toString('base64') };
  const files = await publicAlbum(link()).files();
  expect(files.map((file) => file.metadata.title)).toEqual(['good.jpg']);
});

test('a row that is not a file’s shape is left out; an answer without the fields the page reads is a server failure', async () => {
  await addFile('good.jpg', 1_000, 1, 10);
  await addFile('odd.jpg', 2_000, 2, 11);
  fake.rows[1] = { ...fake.rows[1], thumbnail: { size: 10 } };
  expect((await publicAlbum(link()).files()).map((file) => file.metadata.title)).toEqual(['good.jpg']);

  fake.rows.push({ id: 3, isDeleted: 'no', updationTime: 12 });
  await expect(publicAlbum(link()).files()).rejects.toMatchObject({ reason: 'server' });
  fake.infoAnswer = () => HttpResponse.json({ collection: { encryptedName: 7 } });
  await expect(publicAlbum(link()).info()).rejects.toMatchObject({ reason: 'server' });
});

test('the download setting comes from the link', async () => {
  fake.link = { ...fake.link, enableDownload: false };
  await expect(publicAlbum(link()).info()).resolves.toMatchObject({ enableDownload: false });
});

test('a key that does not open the album is a wrong link, told before any password', async () => {
  await withPassword();
  const other = await crypto.generateKey();
  await expect(publicAlbum(link(other)).info()).rejects.toMatchObject({
    name: 'PublicAlbumError',
    reason: 'wrongLink',
  });
});

test('a password link: the files need the password; a wrong one is refused, the right one’s token is sent', async () => {
  await withPassword();
  await addFile('secret.jpg', 1_000, 1, 10);
  const album = publicAlbum(link());
  await expect(album.info()).resolves.toMatchObject({ passwordEnabled: true });
  await expect(album.files()).rejects.toMatchObject({ reason: 'passwordRequired' });
  await expect(album.unlock('wrong horse')).rejects.toMatchObject({ reason: 'wrongPassword' });
  await album.unlock(password);
  // The hash the owner's client wrote (Argon2id with the link's salt and limits), compared by the server.
  const verify = fake.seen.filter((each) => each.path === '/public-collection/verify-password');
  expect(verify).toHaveLength(2);
  expect((await album.files()).map((file) => file.metadata.title)).toEqual(['secret.jpg']);
  expect(fake.seen.at(-1)?.headers).toEqual({ token, jwt: fake.jwt });
  await expect(album.mediaRoutes.objectURL('download', 1)).resolves.toBe(
    `${apiOrigin}/public-collection/files/download/1?accessToken=${token}&accessTokenJWT=${fake.jwt}`,
  );
});

test('link parameters outside the KDF bounds are not run: a wrong link', async () => {
  await withPassword();
  fake.link = { ...fake.link, memLimit: 4 * 1024 * 1024 * 1024 };
  const album = publicAlbum(link());
  await album.info();
  await expect(album.unlock(password)).rejects.toMatchObject({ reason: 'wrongLink' });
});

test.each([
  ['401 invalid token', () => refused(401, 'invalid token'), 'wrongLink'],
  ['401 missing accessToken', () => refused(401, 'missing accessToken'), 'wrongLink'],
  ['404', () => HttpResponse.json({}, { status: 404 }), 'wrongLink'],
  ['410 disabled token', () => refused(410, 'disabled token'), 'disabled'],
  ['410 expired token', () => refused(410, 'expired token'), 'expired'],
  [
    '403 device limit',
    () => HttpResponse.json({ code: 'LINK_DEVICE_LIMIT_EXCEEDED', message: 'm' }, { status: 403 }),
    'deviceLimit',
  ],
  ['429', () => HttpResponse.json({ error: 'rate' }, { status: 429 }), 'tooManyTries'],
  ['500', () => HttpResponse.json({}, { status: 500 }), 'server'],
  ['no answer', () => HttpResponse.error(), 'network'],
] as const)('the answer %s to /info is said in words', async (_answer, answer, reason) => {
  fake.infoAnswer = answer;
  await expect(publicAlbum(link()).info()).rejects.toMatchObject({ reason });
});

test('a refusal of the link token at verify-password is the link’s, not the password’s', async () => {
  await withPassword();
  const album = publicAlbum(link());
  await album.info();
  msw.use(http.post(`${apiOrigin}/public-collection/verify-password`, () => refused(410, 'disabled token')));
  await expect(album.unlock(password)).rejects.toMatchObject({ reason: 'disabled' });
  expect(publicAlbumErrorOf(new Error('other'))).toMatchObject({ reason: 'server' });
});

describe('a file list that would not end is refused', () => {
  /** Answers every diff page with `page(sinceTime)` and more to come; counts the pages asked for. */
  function endless(page: (since: number) => Record<string, unknown>[]) {
    const asked: number[] = [];
    msw.use(
      http.get(`${apiOrigin}/public-collection/diff`, ({ request }) => {
        const since = Number(new URL(request.url).searchParams.get('sinceTime'));
        asked.push(since);
        // A runaway loop would ask for ever: fail the test instead of hanging it.
        if (asked.length > 100) return HttpResponse.json({}, { status: 500 });
        return HttpResponse.json({ diff: page(since), hasMore: true });
      }),
    );
    return asked;
  }
  const row = (id: number, updationTime: number) => ({ id, isDeleted: true, updationTime });

  test('a page with more to come that does not move the cursor, or repeats the last', async () => {
    const stuck = endless(() => [row(1, 10)]);
    const error = await publicAlbum(link())
      .files()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'PublicAlbumError', reason: 'server' });
    expect(String((error as Error).cause)).toMatch(/does not end: a page with more to come that stays at sinceTime 10/);
    // The first page moved the cursor to 10; the second, the same page again, did not.
    expect(stuck).toEqual([0, 10]);

    const backwards = endless((since) => (since === 0 ? [row(1, 20)] : [row(2, 5)]));
    await expect(publicAlbum(link()).files()).rejects.toMatchObject({ reason: 'server' });
    expect(backwards).toEqual([0, 20]);
  });

  test('pages that keep moving the cursor stop at the bound on entries', async () => {
    // Ten entries a page, each page newer than the last.
    const asked = endless((since) => Array.from({ length: 10 }, (_, i) => row(since + i + 1, since + 10)));
    const error = await publicAlbum(link(), { maxEntries: 35 })
      .files()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'PublicAlbumError', reason: 'server' });
    expect(String((error as Error).cause)).toMatch(/more than 35 entries/);
    expect(asked).toEqual([0, 10, 20, 30]);
  });

  test('an album of exactly the bound opens', async () => {
    await addFile('one.jpg', 1_000, 1, 10);
    await addFile('two.jpg', 2_000, 2, 11);
    const files = await publicAlbum(link(), { maxEntries: 2 }).files();
    expect(files.map((file) => file.metadata.title)).toEqual(['two.jpg', 'one.jpg']);
  });
});
