// Each function of api.ts against msw: the method, path, query and body it sends (bodies checked with the
// server's request schemas of @ente/protocol), the token, and what it makes of the answer.
import 'fake-indexeddb/auto';

import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import * as links from '@ente/protocol/photos-trash-links.ts';
import * as photos from '@ente/protocol/photos.ts';
import { setAppName } from '@ente/shared/app-name.ts';
import { httpStatusOf } from '@ente/shared/failure.ts';
import { ResponseShapeError } from '@ente/shared/http.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';

import * as api from './api.ts';

const origin = 'https://api.ente.com';
const token = 'token-of-user-7';
const server = setupServer();

interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  token: string | null;
}
let seen: Seen[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(async () => {
  setAppName('photos');
  seen = [];
  answer = { status: 200, body: {} };
  server.use(
    http.all(`${origin}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      seen.push({
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: text ? (JSON.parse(text) as unknown) : undefined,
        token: request.headers.get('X-Auth-Token'),
      });
      return HttpResponse.json(answer.body as object, { status: answer.status });
    }),
  );
  await saveUser({ id: 7, email: 'joan@example.org', token });
});
afterEach(async () => {
  server.resetHandlers();
  localStorage.clear();
  await deleteKVDatabase();
});
afterAll(() => server.close());

const b64 = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');
const user = { id: 7, email: 'joan@example.org', name: '', role: 'OWNER' };
const collection: photos.Collection = {
  id: 11,
  owner: user,
  encryptedKey: b64(48),
  keyDecryptionNonce: b64(24),
  name: '',
  encryptedName: b64(20),
  nameDecryptionNonce: b64(24),
  type: 'album',
  attributes: { version: 0 },
  sharees: [],
  publicURLs: [],
  updationTime: 1_000,
  app: 'photos',
};
const object = { decryptionHeader: b64(24), size: 10 };
const file: photos.PhotoFile = {
  id: 21,
  ownerID: 7,
  collectionID: 11,
  collectionOwnerID: 7,
  encryptedKey: b64(48),
  keyDecryptionNonce: b64(24),
  file: object,
  thumbnail: object,
  metadata: { encryptedData: b64(30), decryptionHeader: b64(24), size: 0 },
  isDeleted: false,
  updationTime: 2_000,
};
const link = {
  url: 'https://photos.example/shared-albums?t=ABCDEFGHJK',
  deviceLimit: 0,
  validTill: 0,
  enableDownload: true,
  enableCollect: false,
  enableComment: false,
  enableJoin: false,
  passwordEnabled: false,
};
const boxed = { id: 21, encryptedKey: b64(48), keyDecryptionNonce: b64(24) };

function last(): Seen {
  const request = seen.at(-1);
  if (!request) throw new Error('no request');
  return request;
}

test('the collections and one page of a collection diff, with the token and the cursor', async () => {
  answer.body = { collections: [collection] };
  expect(await api.getCollections(5)).toEqual([collection]);
  expect(last()).toEqual({ method: 'GET', path: '/collections/v2', query: { sinceTime: '5' }, body: undefined, token });

  answer.body = { diff: [file], hasMore: true };
  expect(await api.getCollectionDiff(11, 1_000)).toEqual({ diff: [file], hasMore: true });
  expect(last()).toMatchObject({ path: '/collections/v2/diff', query: { collectionID: '11', sinceTime: '1000' } });
});

test('the writes send what the server validates', async () => {
  const request = {
    encryptedKey: b64(48),
    keyDecryptionNonce: b64(24),
    encryptedName: b64(20),
    nameDecryptionNonce: b64(24),
    type: 'album' as const,
  };
  const writes: [() => Promise<unknown>, string, string, { safeParse: (value: unknown) => { success: boolean } }?][] = [
    [() => api.createCollection(request), 'POST', '/collections', photos.createCollectionRequestSchema],
    [
      () => api.renameCollection({ collectionID: 11, encryptedName: b64(20), nameDecryptionNonce: b64(24) }),
      'POST',
      '/collections/rename',
      photos.renameCollectionRequestSchema,
    ],
    [
      () => api.addFiles({ collectionID: 11, files: [boxed] }),
      'POST',
      '/collections/add-files',
      photos.addFilesRequestSchema,
    ],
    [
      () => api.moveFiles({ fromCollectionID: 11, toCollectionID: 12, files: [boxed] }),
      'POST',
      '/collections/move-files',
      photos.moveFilesRequestSchema,
    ],
    [
      () => api.removeFiles({ collectionID: 11, fileIDs: [21] }),
      'POST',
      '/collections/v3/remove-files',
      photos.removeFilesRequestSchema,
    ],
    [
      () => api.restoreFiles({ collectionID: 11, files: [boxed] }),
      'POST',
      '/collections/restore-files',
      photos.addFilesRequestSchema,
    ],
    [
      () => api.unshareCollection({ collectionID: 11, email: 'ann@example.org' }),
      'POST',
      '/collections/unshare',
      photos.unshareCollectionRequestSchema,
    ],
    [() => api.leaveCollection(11), 'POST', '/collections/leave/11'],
    [
      () =>
        api.updateFilesMagicMetadata(
          [{ id: 21, magicMetadata: { version: 1, count: 1, data: b64(10), header: b64(24) } }],
          { public: true },
        ),
      'PUT',
      '/files/public-magic-metadata',
      photos.updateMagicMetadataRequestSchema,
    ],
    [() => api.trashFiles([{ fileID: 21, collectionID: 11 }]), 'POST', '/files/trash', links.trashFilesRequestSchema],
    [() => api.deleteFromTrash([21]), 'POST', '/trash/delete', links.deleteFromTrashRequestSchema],
    [() => api.emptyTrash(3_000), 'POST', '/trash/empty', links.emptyTrashRequestSchema],
    [() => api.deletePublicLink(11), 'DELETE', '/collections/share-url/11'],
  ];
  for (const [call, method, path, schema] of writes) {
    answer.body = path === '/collections' ? { collection } : path === '/collections/unshare' ? { sharees: [] } : {};
    await call();
    expect(last()).toMatchObject({ method, path, token });
    if (schema) expect(schema.safeParse(last().body).success).toBe(true);
  }
});

test('deleting a collection says whether its files stay', async () => {
  await api.deleteCollection(11, true);
  expect(last()).toMatchObject({ method: 'DELETE', path: '/collections/v3/11', query: { keepFiles: 'true' } });
  await api.deleteCollection(11, false);
  expect(last().query).toEqual({ keepFiles: 'false' });
});

test('sharing answers the sharees; the public key is asked by e-mail', async () => {
  answer.body = { publicKey: b64(32) };
  expect(await api.getPublicKey('ann@example.org')).toBe(b64(32));
  expect(last()).toMatchObject({ path: '/users/public-key', query: { email: 'ann@example.org' } });

  const sharee = { id: 8, email: 'ann@example.org', name: '', role: 'VIEWER' };
  answer.body = { sharees: [sharee] };
  const sharing = { collectionID: 11, email: 'ann@example.org', role: 'VIEWER' as const, encryptedKey: b64(80) };
  expect(await api.shareCollection(sharing)).toEqual([sharee]);
  expect(photos.shareCollectionRequestSchema.safeParse(last().body).success).toBe(true);
});

test('public links: created, changed (password as hash, salt and limits), each answering the link', async () => {
  answer.body = { result: link };
  expect(await api.createPublicLink({ collectionID: 11, enableCollect: false })).toEqual(link);
  expect(links.createPublicLinkRequestSchema.safeParse(last().body).success).toBe(true);
  const change = { collectionID: 11, passHash: b64(32), nonce: b64(16), opsLimit: 2, memLimit: 67_108_864 };
  answer.body = { result: { ...link, passwordEnabled: true, nonce: b64(16), opsLimit: 2, memLimit: 67_108_864 } };
  expect((await api.updatePublicLink(change)).passwordEnabled).toBe(true);
  expect(last()).toMatchObject({ method: 'PUT', path: '/collections/share-url' });
  expect(links.updatePublicLinkRequestSchema.safeParse(last().body).success).toBe(true);
});

test('the trash diff and the storage figures', async () => {
  const entry = { file, isDeleted: false, isRestored: false, deleteBy: 9, createdAt: 1, updatedAt: 2 };
  answer.body = { diff: [entry], hasMore: false };
  expect(await api.getTrashDiff(0)).toEqual({ diff: [entry], hasMore: false });
  expect(last()).toMatchObject({ path: '/trash/v2/diff', query: { sinceTime: '0' } });

  const profileData = {
    canDisableEmailMFA: false,
    isEmailMFAEnabled: false,
    isTwoFactorEnabled: false,
    passkeyCount: 0,
  };
  const subscription = {
    id: 0,
    userID: 7,
    productID: 'free',
    storage: 1_000,
    originalTransactionID: '',
    expiryTime: 0,
    paymentProvider: '',
    attributes: {},
    price: '',
    period: 'year',
  };
  answer.body = {
    email: 'joan@example.org',
    usage: 600,
    fileCount: 3,
    storageBonus: 0,
    subscription,
    profileData,
    bonusData: { storageBonuses: [] },
  };
  expect(await api.getStorageUsage()).toEqual({ usage: 600, storage: 1_000, fileCount: 3 });
  expect(last().query).toEqual({ memoryCount: 'true' });
});

test('an answer of the wrong shape, and a refusal, reject with the HTTP client errors', async () => {
  answer.body = { collections: [{ id: 'eleven' }] };
  await expect(api.getCollections(0)).rejects.toBeInstanceOf(ResponseShapeError);
  answer = { status: 409, body: { code: 'COLLECTION_NOT_EMPTY', message: 'not empty' } };
  const refused = await api.deleteCollection(11, true).catch((e: unknown) => e);
  expect(httpStatusOf(refused)).toBe(409);
});
