// The vault against an in-memory authenticator server (testing/fake-authenticator.ts), with IndexedDB
// from fake-indexeddb and the crypto API in-process.
import 'fake-indexeddb/auto';

import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import { saveMasterKeyOfThisTab } from '@ente/accounts/services/storage.ts';
import { cryptoWorker, type CryptoRemote } from '@ente/crypto/client.ts';
import { setAppName } from '@ente/shared/app-name.ts';
import { resetInMemoryState } from '@ente/shared/storage/in-memory.ts';
import { deleteIndexedDatabase } from '@ente/shared/storage/indexed-db.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { saveUser } from '@ente/shared/storage/local-storage.ts';

import { codeURI, parseCodeURI } from '../services/code-uri.ts';
import { otpAt } from '../services/otp.ts';
import { DIFF_PAGE_SIZE } from '../services/remote.ts';
import type { Code, CodeData, VaultItem } from '../services/types.ts';
import { authenticatorDB } from '../storage.ts';
import { apiOrigin, FakeAuthenticatorServer, fakeToken, fakeUserID } from '../testing/fake-authenticator.ts';
import { authenticatorCache, authenticatorCacheReader, snapshotFormat } from './cache.ts';
import {
  nextSinceTime,
  openVault,
  VAULT_CHANNEL,
  VaultConflictError,
  VaultError,
  type OpenVaultOptions,
  type Vault,
} from './vault.ts';

const msw = setupServer();
let fake: FakeAuthenticatorServer;
let crypto: CryptoRemote;
let masterKey: string;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'error' });
  crypto = await cryptoWorker();
});
beforeEach(async () => {
  setAppName('auth');
  fake = new FakeAuthenticatorServer();
  msw.resetHandlers(...fake.handlers);
  await saveUser({ id: fakeUserID, email: 'joan@example.org', token: fakeToken });
  masterKey = await crypto.generateKey();
  await saveMasterKeyOfThisTab(masterKey);
});
afterEach(async () => {
  await resetInMemoryState(); // closes every open vault
  jest.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  await deleteKVDatabase();
  await authenticatorCache.close();
  await deleteIndexedDatabase(authenticatorDB.database);
});
afterAll(() => msw.close());

const secret = 'JBSWY3DPEHPK3PXP';
const uriOf = (issuer: string, account = 'joan') =>
  `otpauth://totp/${issuer}:${account}?algorithm=SHA1&digits=6&issuer=${issuer}&period=30&secret=${secret}`;

/** The user's authenticator key on the server, wrapped under this tab's masterKey. */
async function serverKey(authKey?: string): Promise<string> {
  const key = authKey ?? (await crypto.generateKey());
  const box = await crypto.encryptBox(key, masterKey);
  fake.setKey({ encryptedKey: box.encryptedData, header: box.nonce });
  return key;
}

/** An entity as another client writes it: the JSON string of the URI, as a Blob. */
async function writeElsewhere(authKey: string, text: string, updatedAt?: number) {
  return fake.insert(await crypto.encryptBlobText(text, authKey), updatedAt);
}

/** Opens a vault and waits for its first pull. */
async function opened(options: OpenVaultOptions = {}): Promise<Vault> {
  const vault = await openVault({ syncIntervalMs: 3_600_000, ...options });
  await settled(vault);
  return vault;
}

async function settled(vault: Vault) {
  await waitFor(
    () => {
      const snapshot = vault.snapshot();
      expect(snapshot.syncing).toBe(false);
      expect(snapshot.status).not.toBe('loading');
    },
    { timeout: 30_000 },
  );
}

const codesOf = (vault: Vault): Code[] =>
  vault.snapshot().items.flatMap((item) => (item.kind === 'code' ? [item.code] : []));
const issuersOf = (vault: Vault) =>
  codesOf(vault)
    .map((code) => code.issuer)
    .sort();
const codeNamed = (vault: Vault, issuer: string): Code => {
  const code = codesOf(vault).find((candidate) => candidate.issuer === issuer);
  if (!code) throw new Error(`no code ${issuer}`);
  return code;
};
const data = (issuer: string, account = 'joan'): CodeData => parseCodeURI(uriOf(issuer, account));

/** A vault with the code "Shared", which another client has since changed to `theirs`. */
async function sharedCodeChangedTo(theirs: string) {
  const authKey = await serverKey();
  const vault = await opened();
  const code = await vault.add(data('Shared'));
  fake.update(code.id, await crypto.encryptBlobText(JSON.stringify(uriOf(theirs)), authKey));
  return { authKey, vault, code };
}

describe('opening', () => {
  test('signed out or locked: VaultError', async () => {
    sessionStorage.clear();
    await expect(openVault()).rejects.toMatchObject({ errorKey: 'vault.locked' });
    await deleteKVDatabase();
    await expect(openVault()).rejects.toMatchObject({ errorKey: 'vault.notSignedIn' });
  });

  test('first open with no key on the server: one is made (Box under the masterKey), posted and cached', async () => {
    const vault = await opened();
    expect(vault.snapshot()).toMatchObject({ status: 'ready', items: [], conflicts: [] });
    const [post] = fake.requestsTo('POST', '/authenticator/key');
    const body = post?.body as { encryptedKey: string; header: string };
    expect(atob(body.header)).toHaveLength(24);
    const authKey = await crypto.decryptBox(body.encryptedKey, body.header, masterKey);
    expect(atob(authKey)).toHaveLength(32);
    expect((await authenticatorCache.read(fakeUserID)).key).toEqual(body);
    // The key it made is the one it writes with.
    await vault.add(data('ACME'));
    const [entity] = fake.live();
    expect(
      await crypto.decryptBlobText({ encryptedData: entity!.encryptedData!, header: entity!.header! }, authKey),
    ).toBe(JSON.stringify(codeURI(data('ACME'))));
  });

  test('409 on key creation (another client was quicker): reads the key again and uses it', async () => {
    const theirs = await crypto.generateKey();
    let gets = 0;
    msw.use(
      // The first GET misses the key the other client is about to post.
      http.get(`${apiOrigin}/authenticator/key`, () => {
        gets += 1;
        return gets === 1 ? HttpResponse.json({ code: 'NOT_FOUND', message: '' }, { status: 404 }) : undefined;
      }),
    );
    await serverKey(theirs);
    await writeElsewhere(theirs, JSON.stringify(uriOf('Theirs')));
    const vault = await opened();
    expect(fake.requestsTo('POST', '/authenticator/key')).toHaveLength(1);
    expect(gets).toBe(2);
    expect(issuersOf(vault)).toEqual(['Theirs']);
    expect(vault.snapshot().syncErrorKey).toBeUndefined();
  });

  test('a write while the first pull makes the key: one key, made once', async () => {
    const vault = await openVault({ syncIntervalMs: 3_600_000 });
    const added = await vault.add(data('Early'));
    await settled(vault);
    expect(fake.requestsTo('POST', '/authenticator/key')).toHaveLength(1);
    expect(codesOf(vault)).toEqual([expect.objectContaining({ id: added.id, issuer: 'Early' })]);
  });

  test('a cache read early (services/vault-start.ts) is what shows first; one read for another user is not', async () => {
    const authKey = await serverKey();
    await writeElsewhere(authKey, JSON.stringify(uriOf('Cached')));
    (await opened()).close();
    const cache = await authenticatorCache.read(fakeUserID);
    // The database emptied after the early read: what the vault shows before its pull came from that read.
    await authenticatorCache.close();
    await deleteIndexedDatabase(authenticatorDB.database);

    const vault = await openVault({ syncIntervalMs: 3_600_000, early: Promise.resolve({ userID: fakeUserID, cache }) });
    expect(vault.snapshot().status).toBe('ready');
    expect(issuersOf(vault)).toEqual(['Cached']);
    await settled(vault);
    vault.close();

    await authenticatorCache.close();
    await deleteIndexedDatabase(authenticatorDB.database);
    const stranger = Promise.resolve({ userID: fakeUserID + 1, cache });
    const other = await openVault({ syncIntervalMs: 3_600_000, early: stranger });
    expect(other.snapshot()).toMatchObject({ status: 'loading', items: [] });
    await settled(other);
    expect(issuersOf(other)).toEqual(['Cached']);
  });

  test('a cached key that no longer opens (account made again): the cache is dropped and pulled afresh', async () => {
    const oldKey = await serverKey();
    await writeElsewhere(oldKey, JSON.stringify(uriOf('Old account')));
    (await opened()).close();
    masterKey = await crypto.generateKey();
    await saveMasterKeyOfThisTab(masterKey);
    fake.entities.clear();
    const newKey = await serverKey();
    await writeElsewhere(newKey, JSON.stringify(uriOf('New account')));
    const vault = await opened();
    expect(issuersOf(vault)).toEqual(['New account']);
    expect((await authenticatorCache.read(fakeUserID)).entities.map((entity) => entity.id)).toEqual(
      fake.live().map((entity) => entity.id),
    );
  });

  test('a key that does not open with the masterKey: failed with vault.keyMissing', async () => {
    const box = await crypto.encryptBox(await crypto.generateKey(), await crypto.generateKey());
    fake.setKey({ encryptedKey: box.encryptedData, header: box.nonce });
    const vault = await opened();
    expect(vault.snapshot()).toMatchObject({ status: 'failed', syncErrorKey: 'vault.keyMissing' });
    await expect(vault.add(data('ACME'))).rejects.toMatchObject({ errorKey: 'vault.keyMissing' });
  });

  test('the entity vector of the protocol decrypts and parses (ACME, user@example.org, pinned)', async () => {
    await serverKey('ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=');
    fake.insert({
      header: 'wvnxrd8hPJ6Do15ziGhAuOz+uIGlDwf+',
      encryptedData:
        'dZWQ5+u8cgkWlHnDQV7ySUfSEiFyIGQMD23gOiE5RhJ88LjIkZ3UwHwdvcaTX0btbG1ujGi1Ntrevh/75C+GuDm5OYAbkSCUKbmRVI89lO+FBo0FQnf0AcZsbVJc8MZFNk+Ndw4loXOXvm3qbBouKt2aTH7XLYvPtZ/IBEXT4XK59xeZWIjNLBPFXZgbC2dqUzIthUc81zFR3hCYXAe7ml94HbkezPQ6M1Meti7SIi1QG4h80kzkuhCgMQ==',
    });
    const vault = await opened();
    expect(codesOf(vault)).toEqual([
      expect.objectContaining({
        type: 'totp',
        issuer: 'ACME',
        account: 'user@example.org',
        digits: 6,
        period: 30,
        algorithm: 'sha1',
        display: expect.objectContaining({ pinned: true, trashed: false }),
      }),
    ]);
  });

  test('a code written straight through the API with the protocol encryption shows with the right value', async () => {
    const authKey = await serverKey();
    const uri = 'otpauth://totp/Example:alice@example.org?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&digits=8&period=30';
    await writeElsewhere(authKey, JSON.stringify(uri));
    const vault = await opened();
    const code = codeNamed(vault, 'Example');
    expect(code.uri).toBe(uri);
    expect(otpAt(code, 59_000)).toBe('94287082'); // RFC 6238, SHA-1 at t = 59 s
  });
});

describe('items that cannot be shown as codes', () => {
  test('do not decrypt, are not a JSON string, do not parse: BrokenItems with the raw text; legacy objects read', async () => {
    const authKey = await serverKey();
    const undecryptable = await writeElsewhere(await crypto.generateKey(), JSON.stringify(uriOf('Other key')));
    const notJSON = await writeElsewhere(authKey, uriOf('Bare'));
    const number = await writeElsewhere(authKey, '42');
    const badSecret = await writeElsewhere(
      authKey,
      JSON.stringify('otpauth://totp/Broken:joan?secret=1!&issuer=Broken'),
    );
    await writeElsewhere(
      authKey,
      JSON.stringify({ rawData: uriOf('Legacy'), display: { pinned: true, tags: ['old'], futureKey: 1 } }),
    );
    await writeElsewhere(authKey, JSON.stringify(uriOf('Fine')));
    const vault = await opened();
    expect(issuersOf(vault)).toEqual(['Fine', 'Legacy']);
    expect(codeNamed(vault, 'Legacy').display).toMatchObject({
      pinned: true,
      tags: ['old'],
      unknown: { futureKey: 1 },
    });
    const broken = Object.fromEntries(
      vault.snapshot().items.flatMap((item: VaultItem) => (item.kind === 'broken' ? [[item.item.id, item.item]] : [])),
    );
    expect(broken[undecryptable.id]).toEqual({
      id: undecryptable.id,
      updatedAt: undecryptable.updatedAt,
      errorKey: 'vault.decryptionFailed',
    });
    expect(broken[notJSON.id]).toMatchObject({ raw: uriOf('Bare'), errorKey: 'vault.notACode' });
    expect(broken[number.id]).toMatchObject({ raw: '42', errorKey: 'vault.notACode' });
    expect(broken[badSecret.id]).toMatchObject({
      raw: 'otpauth://totp/Broken:joan?secret=1!&issuer=Broken',
      issuer: 'Broken',
      errorKey: expect.stringMatching(/^parse\./),
    });
    expect(vault.snapshot().status).toBe('ready');
  });
});

describe('cache and diff', () => {
  test('a second open shows the cached codes before its pull answers, then pulls only what changed since', async () => {
    const authKey = await serverKey();
    for (const issuer of ['A', 'B', 'C']) await writeElsewhere(authKey, JSON.stringify(uriOf(issuer)));
    const first = await opened();
    first.close();
    const cursor = Math.max(...fake.live().map((entity) => entity.updatedAt));
    const gone = fake.live()[0]!;
    fake.remove(gone.id);
    await writeElsewhere(authKey, JSON.stringify(uriOf('D')));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    msw.use(http.get(`${apiOrigin}/authenticator/entity/diff`, () => gate.then(() => undefined)));
    fake.requests.length = 0;

    const second = await openVault({ syncIntervalMs: 3_600_000 });
    expect(second.snapshot()).toMatchObject({ status: 'ready', syncing: true });
    expect(issuersOf(second)).toEqual(['A', 'B', 'C']);
    expect(fake.requestsTo('GET', '/authenticator/key')).toHaveLength(0); // the cached key opened
    release();
    await settled(second);
    expect(issuersOf(second)).toEqual(['B', 'C', 'D']); // A was the first written, and deleted
    expect(fake.requestsTo('GET', '/authenticator/entity/diff')[0]?.query).toEqual({
      sinceTime: String(cursor),
      limit: String(DIFF_PAGE_SIZE),
    });
    // The deletion reached the cache too.
    const cache = await authenticatorCache.read(fakeUserID);
    expect(cache.entities.map((entity) => entity.id)).not.toContain(gone.id);
    expect(cache.entities).toHaveLength(3);
  });

  test('a reopened vault shows the snapshot (one decryption, no entity records); one that does not open is passed over', async () => {
    const authKey = await serverKey();
    for (const issuer of ['A', 'B', 'C']) await writeElsewhere(authKey, JSON.stringify(uriOf(issuer)));
    const first = await opened();
    await waitFor(async () => expect((await authenticatorCache.readStart(fakeUserID)).snapshot).toBeDefined());
    const cursor = (await authenticatorCache.readStart(fakeUserID)).snapshot?.sinceTime;
    first.close();

    const decryptMany = jest.spyOn(crypto, 'decryptBlobTexts');
    const decryptOne = jest.spyOn(crypto, 'decryptBlobText');
    // Every read of the records, the vault's own and the early one's, goes through the shared reader.
    const readRecords = jest.spyOn(authenticatorCacheReader, 'read');
    const diffs: string[] = [];
    msw.use(
      http.get(`${apiOrigin}/authenticator/entity/diff`, ({ request }) => {
        diffs.push(new URL(request.url).searchParams.get('sinceTime') ?? '');
        return new Promise<undefined>(() => undefined);
      }),
    );
    const second = await openVault({ syncIntervalMs: 3_600_000 });
    expect(second.snapshot().status).toBe('ready');
    expect(issuersOf(second)).toEqual(['A', 'B', 'C']);
    expect(decryptMany).not.toHaveBeenCalled();
    expect(decryptOne).toHaveBeenCalledTimes(1);
    expect(readRecords).not.toHaveBeenCalled();
    await waitFor(() => expect(diffs).toHaveLength(1));
    expect(Number(diffs[0])).toBe(cursor);
    second.close();

    // A snapshot that does not open (not under this key): the entity records show the codes.
    const stranger = await crypto.encryptBlobText('{}', await crypto.generateKey());
    await authenticatorCache.saveSnapshot(fakeUserID, { ...stranger, format: snapshotFormat(), sinceTime: 2 ** 52 });
    const third = await openVault({ syncIntervalMs: 3_600_000 });
    expect(issuersOf(third)).toEqual(['A', 'B', 'C']);
    expect(readRecords).toHaveBeenCalledTimes(1);
    expect(decryptMany).toHaveBeenCalledTimes(1);
  });

  test('10,000 entities: pages of 2,500 from the max updatedAt seen, to an empty page; then 1,000 from the cache', async () => {
    const authKey = await serverKey();
    const blobs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => crypto.encryptBlobText(JSON.stringify(uriOf(`I${String(i)}`)), authKey)),
    );
    for (let i = 0; i < 10_000; i++) fake.insert(blobs[i % blobs.length]!);
    const vault = await opened();
    expect(vault.snapshot().items).toHaveLength(10_000);
    const sinceTimes = fake
      .requestsTo('GET', '/authenticator/entity/diff')
      .map((request) => Number(request.query.sinceTime));
    const times = [...fake.entities.values()].map((entity) => entity.updatedAt).sort((a, b) => a - b);
    // After a full page the cursor is one below its last updatedAt (that row comes again, with any that
    // share its time); after the short page it is the last updatedAt, and an empty page ends the pull.
    const at = (index: number) => times[index]!;
    expect(sinceTimes).toEqual([0, at(2499) - 1, at(4998) - 1, at(7497) - 1, at(9996) - 1, at(9999)]);
    vault.close();

    // From the cache: 1,000 codes, one decryption call.
    await deleteIndexedDatabase(authenticatorDB.database);
    fake.entities.clear();
    for (let i = 0; i < 1_000; i++) fake.insert(blobs[i % blobs.length]!);
    (await opened()).close();
    const decryptMany = jest.spyOn(crypto, 'decryptBlobTexts');
    const decryptOne = jest.spyOn(crypto, 'decryptBlobText');
    msw.use(http.get(`${apiOrigin}/authenticator/entity/diff`, () => new Promise<undefined>(() => undefined)));
    const fromCache = await openVault({ syncIntervalMs: 3_600_000 });
    expect(fromCache.snapshot().items).toHaveLength(1_000);
    expect(decryptMany.mock.calls.length + decryptOne.mock.calls.length).toBe(1);
  }, 60_000);

  test('rows sharing one updatedAt across a full page are fetched again, not skipped (the strict > quirk)', async () => {
    const authKey = await serverKey();
    const blob = await crypto.encryptBlobText(JSON.stringify(uriOf('Same')), authKey);
    const base = Date.now() * 1000;
    for (let i = 0; i < 2_450; i++) fake.insert(blob, base + i);
    for (let i = 0; i < 150; i++) fake.insert(blob, base + 5_000); // rows 2450..2599 share one time
    const vault = await opened();
    expect(vault.snapshot().items).toHaveLength(2_600);
    expect(nextSinceTime(0, [{ updatedAt: 5 }, { updatedAt: 9 }], 2)).toBe(8);
    expect(nextSinceTime(0, [{ updatedAt: 9 }, { updatedAt: 9 }], 2)).toBe(9);
    expect(nextSinceTime(3, [{ updatedAt: 9 }], 2)).toBe(9);
    expect(nextSinceTime(3, [], 2)).toBe(3);
  }, 30_000);

  test('a cache of another user is not shown', async () => {
    const authKey = await serverKey();
    await writeElsewhere(authKey, JSON.stringify(uriOf('Mine')));
    (await opened()).close();
    await saveUser({ id: fakeUserID + 1, email: 'other@example.org', token: fakeToken });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    msw.use(http.get(`${apiOrigin}/authenticator/key`, () => gate.then(() => undefined)));
    const other = await openVault({ syncIntervalMs: 3_600_000 });
    expect(other.snapshot()).toMatchObject({ status: 'loading', items: [] });
    release();
    await settled(other);
  });
});

describe('time offset', () => {
  test.each([
    ['ahead', 90_000],
    ['behind', -90_000],
  ])('server %s: timeOffsetMs = server − local', async (_, offset) => {
    await serverKey();
    fake.clockOffsetMs = offset;
    const vault = await opened();
    const measured = vault.snapshot().timeOffsetMs;
    expect(Math.abs(measured - offset)).toBeLessThan(1_000);
    vault.close();
    // Kept with the cache, and used by the next open before its pull answers.
    expect((await authenticatorCache.read(fakeUserID)).sync?.timeOffsetMs).toBe(measured);
    msw.use(http.get(`${apiOrigin}/authenticator/entity/diff`, () => new Promise<undefined>(() => undefined)));
    expect((await openVault({ syncIntervalMs: 3_600_000 })).snapshot().timeOffsetMs).toBe(measured);
  });
});

describe('writes', () => {
  test('add: POST of the JSON string of the URI (protocol form), shown and cached', async () => {
    const authKey = await serverKey();
    const vault = await opened();
    const added = await vault.add(data('New', 'joan@example.org'));
    const [entity] = fake.live();
    expect(added).toMatchObject({
      id: entity!.id,
      updatedAt: entity!.updatedAt,
      issuer: 'New',
      account: 'joan@example.org',
    });
    const text = await crypto.decryptBlobText(
      { encryptedData: entity!.encryptedData!, header: entity!.header! },
      authKey,
    );
    expect(text.startsWith('"otpauth://totp/')).toBe(true);
    expect(JSON.parse(text)).toBe(added.uri);
    expect(parseCodeURI(JSON.parse(text) as string)).toEqual(data('New', 'joan@example.org'));
    expect(issuersOf(vault)).toEqual(['New']);
    expect((await authenticatorCache.read(fakeUserID)).entities).toEqual([
      { id: entity!.id, encryptedData: entity!.encryptedData, header: entity!.header, updatedAt: entity!.updatedAt },
    ]);
  });

  test('addMany: batches encrypted in one call each, every code posted once, progress per batch, one snapshot per batch', async () => {
    await serverKey();
    const vault = await opened();
    const datas = Array.from({ length: 23 }, (_, index) => data(`Imported${String(index)}`));
    const progress: [number, number][] = [];
    let snapshots = 0;
    vault.subscribe(() => snapshots++);
    const encrypt = jest.spyOn(crypto, 'encryptBlobTexts');
    const added = await vault.addMany(datas, {
      batchSize: 10,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(added.map((code) => code.issuer)).toEqual(datas.map((one) => one.issuer));
    expect(fake.live()).toHaveLength(23);
    expect(progress).toEqual([
      [10, 23],
      [20, 23],
      [23, 23],
    ]);
    expect(encrypt).toHaveBeenCalledTimes(3);
    expect(snapshots).toBe(3);
    expect(issuersOf(vault)).toEqual(datas.map((one) => one.issuer).sort());
    expect((await authenticatorCache.read(fakeUserID)).entities).toHaveLength(23);
  });

  test("the account's quota on the server and its limit on changes: each has its message, nothing is kept", async () => {
    await serverKey();
    const vault = await opened();
    msw.use(
      http.post(`${apiOrigin}/authenticator/entity`, () =>
        HttpResponse.json(
          { code: 'ENTITY_LIMIT_REACHED', message: 'the account holds the most entities it may (20000)' },
          { status: 403 },
        ),
      ),
    );
    await expect(vault.addMany([data('Full'), data('Fuller')])).rejects.toMatchObject({
      errorKey: 'vault.quotaReached',
    });
    expect(codesOf(vault)).toEqual([]);
    expect(vault.snapshot().readOnlyReason).toBeUndefined();
    msw.use(
      http.post(`${apiOrigin}/authenticator/entity`, () =>
        HttpResponse.json({ error: 'Rate limit breached, try later' }, { status: 429 }),
      ),
    );
    await expect(vault.add(data('Busy'))).rejects.toMatchObject({ errorKey: 'vault.tooManyChanges' });
    expect(fake.live()).toEqual([]);
  });

  test('addMany: a failure mid-way keeps the codes saved before it, whole, and rejects', async () => {
    const authKey = await serverKey();
    const vault = await opened();
    let posts = 0;
    msw.use(
      http.post(`${apiOrigin}/authenticator/entity`, () => {
        posts++;
        return posts > 12 ? HttpResponse.error() : undefined;
      }),
    );
    const datas = Array.from({ length: 30 }, (_, index) => data(`Cut${String(index)}`));
    const progress: number[] = [];
    await expect(
      vault.addMany(datas, { batchSize: 10, onProgress: (done) => progress.push(done) }),
    ).rejects.toBeInstanceOf(VaultError);
    // Whatever the server stored is what the vault shows and caches: whole codes, none twice.
    const live = fake.live();
    expect(live.length).toBeGreaterThanOrEqual(10);
    expect(live.length).toBeLessThan(30);
    expect(
      codesOf(vault)
        .map((code) => code.id)
        .sort(),
    ).toEqual(live.map((entity) => entity.id).sort());
    expect(progress.at(-1)).toBe(live.length);
    for (const entity of live) {
      const text = await crypto.decryptBlobText(
        { encryptedData: entity.encryptedData!, header: entity.header! },
        authKey,
      );
      expect(parseCodeURI(JSON.parse(text) as string).issuer).toMatch(/^Cut\d+$/);
    }
  });

  test('addMany: an abort stops before the next batch', async () => {
    await serverKey();
    const vault = await opened();
    const aborter = new AbortController();
    const datas = Array.from({ length: 20 }, (_, index) => data(`Stop${String(index)}`));
    const run = vault.addMany(datas, {
      batchSize: 5,
      onProgress: (done) => done >= 5 && aborter.abort(),
      signal: aborter.signal,
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.live()).toHaveLength(5);
    expect(codesOf(vault)).toHaveLength(5);
  });

  test('update: PUT with ifUpdatedAt, then the new updatedAt from the pull', async () => {
    await serverKey();
    const vault = await opened();
    const code = await vault.add(data('Old'));
    const renamed = await vault.update(code, {
      ...code,
      issuer: 'Renamed',
      display: { ...code.display, pinned: true },
    });
    const [put] = fake.requestsTo('PUT', '/authenticator/entity');
    expect(put?.body).toMatchObject({ id: code.id, ifUpdatedAt: code.updatedAt });
    expect(renamed).toMatchObject({
      id: code.id,
      issuer: 'Renamed',
      display: expect.objectContaining({ pinned: true }),
    });
    expect(renamed.updatedAt).toBe(fake.entities.get(code.id)?.updatedAt);
    expect(renamed.updatedAt).toBeGreaterThan(code.updatedAt);
    expect(issuersOf(vault)).toEqual(['Renamed']);
  });

  test("409: pulls, records the conflict with the server's version, throws; 'theirs' drops mine", async () => {
    const { vault, code } = await sharedCodeChangedTo('Changed elsewhere');
    const error = await vault.update(code, { ...code, issuer: 'Mine' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultConflictError);
    expect(error).toMatchObject({ errorKey: 'vault.conflict' });
    const [conflict] = vault.snapshot().conflicts;
    expect(conflict).toMatchObject({ id: code.id, mine: expect.objectContaining({ issuer: 'Mine' }) });
    expect(conflict?.theirs).toMatchObject({
      kind: 'code',
      code: expect.objectContaining({ issuer: 'Changed elsewhere' }),
    });
    expect(issuersOf(vault)).toEqual(['Changed elsewhere']);
    const puts = fake.requestsTo('PUT', '/authenticator/entity').length;
    await vault.resolveConflict(code.id, 'theirs');
    expect(vault.snapshot().conflicts).toEqual([]);
    expect(fake.requestsTo('PUT', '/authenticator/entity')).toHaveLength(puts);
    expect(issuersOf(vault)).toEqual(['Changed elsewhere']);
  });

  test("'mine' writes mine over theirs' updatedAt; a newer change meanwhile is a new conflict", async () => {
    const { authKey, vault, code } = await sharedCodeChangedTo('Theirs');
    await expect(vault.update(code, { ...code, issuer: 'Mine' })).rejects.toBeInstanceOf(VaultConflictError);
    const theirsAt = fake.entities.get(code.id)!.updatedAt;

    // Changed once more before the user chose: still no silent overwrite.
    fake.update(code.id, await crypto.encryptBlobText(JSON.stringify(uriOf('Theirs again')), authKey));
    await expect(vault.resolveConflict(code.id, 'mine')).rejects.toBeInstanceOf(VaultConflictError);
    expect(fake.requestsTo('PUT', '/authenticator/entity').at(-1)?.body).toMatchObject({ ifUpdatedAt: theirsAt });
    expect(vault.snapshot().conflicts).toHaveLength(1);
    expect(vault.snapshot().conflicts[0]?.theirs).toMatchObject({
      code: expect.objectContaining({ issuer: 'Theirs again' }),
    });

    await vault.resolveConflict(code.id, 'mine');
    expect(vault.snapshot().conflicts).toEqual([]);
    expect(issuersOf(vault)).toEqual(['Mine']);
    const stored = fake.entities.get(code.id)!;
    expect(
      JSON.parse(
        await crypto.decryptBlobText({ encryptedData: stored.encryptedData!, header: stored.header! }, authKey),
      ),
    ).toContain('otpauth://totp/Mine:joan');
  });

  test("deleted elsewhere: the conflict's theirs is 'deleted'; 'mine' keeps it as a new code", async () => {
    await serverKey();
    const vault = await opened();
    const code = await vault.add(data('Doomed'));
    fake.remove(code.id);
    const kept = { ...code, display: { ...code.display, note: 'kept' } };
    await expect(vault.update(code, kept)).rejects.toBeInstanceOf(VaultConflictError);
    expect(vault.snapshot().conflicts[0]).toMatchObject({ id: code.id, theirs: 'deleted' });
    expect(vault.snapshot().items).toEqual([]);
    await vault.resolveConflict(code.id, 'mine');
    expect(vault.snapshot().conflicts).toEqual([]);
    expect(fake.live()).toHaveLength(1);
    expect(codesOf(vault)).toEqual([expect.objectContaining({ issuer: 'Doomed', id: fake.live()[0]!.id })]);
    expect(codesOf(vault)[0]?.display.note).toBe('kept');
  });

  test('deleteForever: DELETE with ifUpdatedAt; when it changed since, nothing is deleted', async () => {
    const authKey = await serverKey();
    const vault = await opened();
    const keep = await vault.add(data('Keep'));
    const drop = await vault.add(data('Drop'));
    await vault.deleteForever(drop.id, drop.updatedAt);
    expect(fake.requestsTo('DELETE', '/authenticator/entity')[0]?.query).toEqual({
      id: drop.id,
      ifUpdatedAt: String(drop.updatedAt),
    });
    expect(issuersOf(vault)).toEqual(['Keep']);
    expect((await authenticatorCache.read(fakeUserID)).entities.map((entity) => entity.id)).toEqual([keep.id]);

    fake.update(keep.id, await crypto.encryptBlobText(JSON.stringify(uriOf('Restored')), authKey));
    await expect(vault.deleteForever(keep.id, keep.updatedAt)).rejects.toMatchObject({
      errorKey: 'vault.deleteConflict',
    });
    expect(fake.live()).toHaveLength(1);
    expect(issuersOf(vault)).toEqual(['Restored']);
  });
});

describe('offline', () => {
  test('navigator offline: cached codes stay, read-only, writes refused; back online it syncs', async () => {
    const authKey = await serverKey();
    await writeElsewhere(authKey, JSON.stringify(uriOf('Cached')));
    (await opened()).close();
    const onLine = jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    fake.requests.length = 0;
    const vault = await opened();
    expect(vault.snapshot()).toMatchObject({
      status: 'ready',
      readOnlyReason: 'offline',
      syncErrorKey: 'vault.offline',
    });
    expect(issuersOf(vault)).toEqual(['Cached']);
    expect(fake.requests).toEqual([]);
    await expect(vault.add(data('New'))).rejects.toMatchObject({ errorKey: 'vault.offline' });

    await writeElsewhere(authKey, JSON.stringify(uriOf('Later')));
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(issuersOf(vault)).toEqual(['Cached', 'Later']));
    await settled(vault);
    expect(vault.snapshot().readOnlyReason).toBeUndefined();
    expect(vault.snapshot().syncErrorKey).toBeUndefined();
  });

  test('a request without an answer: offline, the codes stay; a server error is only a sync error', async () => {
    const authKey = await serverKey();
    await writeElsewhere(authKey, JSON.stringify(uriOf('Cached')));
    const vault = await opened();
    msw.use(http.get(`${apiOrigin}/authenticator/entity/diff`, () => HttpResponse.error()));
    await vault.sync();
    expect(vault.snapshot()).toMatchObject({
      status: 'ready',
      readOnlyReason: 'offline',
      syncErrorKey: 'vault.offline',
    });
    expect(issuersOf(vault)).toEqual(['Cached']);

    msw.resetHandlers(...fake.handlers);
    msw.use(http.get(`${apiOrigin}/authenticator/entity/diff`, () => HttpResponse.json({}, { status: 502 })));
    await vault.sync();
    expect(vault.snapshot()).toMatchObject({ status: 'ready', syncErrorKey: 'vault.serverError' });
    expect(vault.snapshot().readOnlyReason).toBeUndefined();
    msw.resetHandlers(...fake.handlers);
    msw.use(http.post(`${apiOrigin}/authenticator/entity`, () => HttpResponse.error()));
    await expect(vault.add(data('New'))).rejects.toMatchObject({ errorKey: 'vault.offline' });
    expect(vault.snapshot().readOnlyReason).toBe('offline');
  });
});

describe('tabs, timers and closing', () => {
  test('two tabs stay in step through the BroadcastChannel', async () => {
    await serverKey();
    const one = await opened();
    const two = await opened();
    const added = await one.add(data('From one'));
    await waitFor(() => expect(issuersOf(two)).toEqual(['From one']));
    await two.update(codeNamed(two, 'From one'), { ...added, issuer: 'From two' });
    await waitFor(() => expect(issuersOf(one)).toEqual(['From two']));
    await two.deleteForever(added.id, codeNamed(two, 'From two').updatedAt);
    await waitFor(() => expect(one.snapshot().items).toEqual([]));
  });

  test('the channel carries only "changed"', async () => {
    await serverKey();
    const vault = await opened();
    const listener = new BroadcastChannel(VAULT_CHANNEL);
    const messages: unknown[] = [];
    listener.onmessage = (event: MessageEvent) => messages.push(event.data);
    await vault.add(data('Secret issuer'));
    await waitFor(() => expect(messages).toEqual(['changed']));
    listener.close();
  });

  test('pulls periodically and when the tab becomes visible', async () => {
    const authKey = await serverKey();
    const vault = await opened({ syncIntervalMs: 50 });
    await writeElsewhere(authKey, JSON.stringify(uriOf('Periodic')));
    await waitFor(() => expect(issuersOf(vault)).toEqual(['Periodic']));
    vault.close();

    const visible = await opened();
    await writeElsewhere(authKey, JSON.stringify(uriOf('Visible')));
    document.dispatchEvent(new Event('visibilitychange'));
    await waitFor(() => expect(issuersOf(visible)).toEqual(['Periodic', 'Visible']));
  });

  test('snapshot() is the same object until something changes', async () => {
    await serverKey();
    const vault = await opened();
    const before = vault.snapshot();
    expect(vault.snapshot()).toBe(before);
    const listener = jest.fn();
    vault.subscribe(listener);
    await vault.add(data('One'));
    expect(listener).toHaveBeenCalled();
    const after = vault.snapshot();
    expect(after).not.toBe(before);
    await vault.sync();
    expect(vault.snapshot().items).toBe(after.items); // nothing new: the same items array
  });

  test('close() forgets the codes and the key, stops listening, and refuses everything after', async () => {
    const authKey = await serverKey();
    await writeElsewhere(authKey, JSON.stringify(uriOf('Gone')));
    const vault = await opened({ syncIntervalMs: 20 });
    const code = codeNamed(vault, 'Gone');
    const listener = jest.fn();
    vault.subscribe(listener);
    vault.close();
    expect(vault.snapshot()).toMatchObject({ status: 'failed', items: [], conflicts: [], readOnlyReason: 'locked' });
    expect(listener).toHaveBeenCalledTimes(1);
    const requests = fake.requests.length;
    const channel = new BroadcastChannel(VAULT_CHANNEL);
    channel.postMessage('changed');
    window.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    channel.close();
    // Neither its timer, another tab's message nor the network made it pull.
    expect(fake.requests).toHaveLength(requests);
    await expect(vault.add(data('No'))).rejects.toBeInstanceOf(VaultError);
    await expect(vault.update(code, data('No'))).rejects.toMatchObject({ errorKey: 'vault.locked' });
    await expect(vault.deleteForever(code.id, code.updatedAt)).rejects.toMatchObject({ errorKey: 'vault.locked' });
    await vault.sync();
    expect(fake.requests).toHaveLength(requests);
    expect(vault.snapshot().items).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  test('logout (the in-memory reset) closes open vaults', async () => {
    await serverKey();
    const vault = await opened();
    await resetInMemoryState();
    expect(vault.snapshot()).toMatchObject({ items: [], readOnlyReason: 'locked' });
  });
});
