// Public links without HTTP (docs/protocol.md#public-links): only the owner makes, changes and removes a
// link; a link reaches its own album's live files and nothing else; disabled, expired and deleted albums'
// links are gone; a password link needs the token verify-password gives, and a token of another link,
// from before the password changed, expired or altered is refused; password tries are limited per link;
// the device limit admits devices seen before and no more new ones than the limit, even at once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { HttpError } from '../http/errors.ts';
import { MICROS_PER_DAY, MICROS_PER_HOUR } from '../lib/clock.ts';
import { suiteContext } from '../testing/context.ts';
import { fixtureAlbum, fixtureFile, fixtureUser, linkDiff } from '../testing/photo-fixtures.ts';
import { refused } from '../testing/refusals.ts';
import { collectionsOf, deleteCollection, shareCollection } from './collections.ts';
import type { ObjectStore } from './object-store.ts';
import * as links from './public-links.ts';
import type { PresentedLink } from './public-links.ts';
import { trashFiles } from './trash.ts';

/** A store whose signed GET names the key (what the link may reach is the point here, not signing). */
const namingStore = { presignGet: (key: string) => Promise.resolve(`/signed/${key}`) } as unknown as ObjectStore;
const passHash = Buffer.alloc(32, 7).toString('base64');
const password = { passHash, nonce: Buffer.alloc(16, 3).toString('base64'), memLimit: 67108864, opsLimit: 2 };

describe('public links', () => {
  const testContext = suiteContext({ PUBLIC_LINK_PASSWORD_TRIES_PER_HOUR: '5' });
  const ctx = () => testContext().ctx;
  const tokenOf = (url: string) => new URL(url).searchParams.get('t') ?? '';
  const presented = (accessToken: string, more: Partial<PresentedLink> = {}): PresentedLink => ({
    accessToken,
    jwt: undefined,
    ip: '192.0.2.1',
    userAgent: 'test',
    ...more,
  });
  const open = (accessToken: string, more: Partial<PresentedLink> = {}) =>
    links.checkLink(ctx(), presented(accessToken, more), { password: true, admit: true });

  async function albumWithLink(options: { deviceLimit?: number } = {}) {
    const owner = await fixtureUser(ctx(), 'links');
    const collectionID = await fixtureAlbum(ctx(), owner.id);
    const link = await links.createLink(ctx(), owner.id, { collectionID, ...options });
    return { owner, collectionID, link, token: tokenOf(link.url) };
  }

  test('the owner makes one link per album, at the shared-albums page; nobody else can touch it', async () => {
    const { owner, collectionID, link, token } = await albumWithLink({ deviceLimit: 4 });
    assert.match(token, /^[2-9A-Z]{10}$/);
    assert.equal(link.url, `http://localhost:3000/shared-albums?t=${token}`);
    assert.deepEqual(
      { ...link, url: '' },
      {
        url: '',
        deviceLimit: 4,
        validTill: 0,
        enableDownload: true,
        enableCollect: false,
        enableComment: false,
        enableJoin: true,
        passwordEnabled: false,
      },
    );
    assert.deepEqual(await links.createLink(ctx(), owner.id, { collectionID }), link);
    const [listed] = await collectionsOf(ctx(), owner.id, 'photos', 0);
    assert.equal(listed?.id, collectionID);
    assert.deepEqual(listed.publicURLs, [link]);

    const [sharee, stranger] = [await fixtureUser(ctx()), await fixtureUser(ctx())];
    await shareCollection(ctx(), owner.id, {
      collectionID,
      email: sharee.email,
      role: 'COLLABORATOR',
      encryptedKey: Buffer.alloc(80, 1).toString('base64'),
    });
    for (const someone of [sharee, stranger]) {
      await refused(links.createLink(ctx(), someone.id, { collectionID }), 403);
      await refused(links.updateLink(ctx(), someone.id, { collectionID, deviceLimit: 0 }), 403);
      await refused(links.disableLink(ctx(), someone.id, collectionID), 403);
    }
    await refused(links.createLink(ctx(), owner.id, { collectionID: 999_999_999 }), 404);
    const uncategorized = await fixtureAlbum(ctx(), owner.id, 'uncategorized');
    await refused(links.createLink(ctx(), owner.id, { collectionID: uncategorized }), 400);
    assert.equal((await open(token)).collectionID, collectionID);
  });

  test('updates with museum’s checks; a password is set whole and removed whole', async () => {
    const { owner, collectionID } = await albumWithLink();
    const update = (changes: Record<string, unknown>) =>
      links.updateLink(ctx(), owner.id, { collectionID, ...changes });
    await refused(update({}), 400);
    await refused(update({ passHash }), 400);
    await refused(update({ ...password, disablePassword: true }), 400);
    await refused(update({ validTill: ctx().clock.nowMicros() - 1 }), 400);
    const withPassword = await update({ ...password, enableDownload: false, deviceLimit: 7 });
    assert.deepEqual(
      [withPassword.passwordEnabled, withPassword.nonce, withPassword.memLimit, withPassword.opsLimit],
      [true, password.nonce, password.memLimit, password.opsLimit],
    );
    assert.deepEqual([withPassword.enableDownload, withPassword.deviceLimit], [false, 7]);
    const without = await update({ disablePassword: true });
    assert.equal(without.passwordEnabled, false);
    assert.equal(without.nonce, undefined);
    assert.equal(without.enableDownload, false);
    // Each change reaches the owner's collection list past its cursor.
    const cursor = Math.max(...(await collectionsOf(ctx(), owner.id, 'photos', 0)).map((c) => c.updationTime));
    await links.disableLink(ctx(), owner.id, collectionID);
    const changed = await collectionsOf(ctx(), owner.id, 'photos', cursor);
    assert.deepEqual(
      changed.map((c) => [c.id, c.publicURLs]),
      [[collectionID, []]],
    );
    await refused(update({ deviceLimit: 1 }), 404);
  });

  test('a bad token is 401; a disabled link, an expired one and a deleted album’s are 410', async () => {
    await refused(links.checkLink(ctx(), presented(''), { password: false, admit: false }), 401, {
      error: 'missing accessToken',
    });
    for (const bad of ['AAAAAAAAAA', 'x'.repeat(65), 'ÄÖÜ', "' OR 1=1 --"]) {
      await refused(open(bad), 401, { error: 'invalid token' });
    }
    const disabled = await albumWithLink();
    await links.disableLink(ctx(), disabled.owner.id, disabled.collectionID);
    await refused(open(disabled.token), 410, { error: 'disabled token' });
    // A new link after that is another token; the old one stays gone.
    const renewed = await links.createLink(ctx(), disabled.owner.id, { collectionID: disabled.collectionID });
    assert.notEqual(tokenOf(renewed.url), disabled.token);
    await refused(open(disabled.token), 410);

    const expiring = await albumWithLink();
    await links.updateLink(ctx(), expiring.owner.id, {
      collectionID: expiring.collectionID,
      validTill: ctx().clock.nowMicros() + MICROS_PER_HOUR,
    });
    await open(expiring.token);
    testContext().clock.advance(2 * MICROS_PER_HOUR);
    await refused(open(expiring.token), 410, { error: 'expired token' });

    const deleted = await albumWithLink();
    await deleteCollection(ctx(), deleted.owner.id, deleted.collectionID, false);
    await refused(open(deleted.token), 410, { error: 'disabled token' });
    const listed = await collectionsOf(ctx(), deleted.owner.id, 'photos', 0);
    assert.deepEqual(listed.find((c) => c.id === deleted.collectionID)?.publicURLs, []);
  });

  test('a link reaches its album’s live files only: another album’s file, a trashed one, an unknown id are 404', async () => {
    const { owner, collectionID, token } = await albumWithLink();
    const shown = await fixtureFile(ctx(), owner.id, collectionID);
    const trashed = await fixtureFile(ctx(), owner.id, collectionID);
    const otherAlbum = await fixtureAlbum(ctx(), owner.id);
    const elsewhere = await fixtureFile(ctx(), owner.id, otherAlbum);
    await links.createLink(ctx(), owner.id, { collectionID: otherAlbum });
    await trashFiles(ctx(), owner.id, [{ fileID: trashed.id, collectionID }]);

    const access = await open(token);
    assert.equal(
      await links.linkFileUrl(ctx(), namingStore, access, shown.id, 'file'),
      `/signed/${shown.objects.file}`,
    );
    assert.equal(
      await links.linkFileUrl(ctx(), namingStore, access, shown.id, 'thumbnail'),
      `/signed/${shown.objects.thumbnail}`,
    );
    for (const fileID of [elsewhere.id, trashed.id, 999_999_999]) {
      await refused(links.linkFileUrl(ctx(), namingStore, access, fileID, 'file'), 404);
    }
    const { diff } = await linkDiff(ctx(), access, 0);
    assert.deepEqual(
      diff.map((file) => [file.id, file.isDeleted]),
      [
        [shown.id, false],
        [trashed.id, true],
      ],
    );
    assert.ok(
      diff.every((file) => file.magicMetadata === undefined),
      'the owner’s private metadata stays private',
    );
    const collection = await links.linkCollection(ctx(), access);
    assert.equal(collection.id, collectionID);
    assert.deepEqual([collection.owner.email, collection.sharees, collection.magicMetadata], ['', [], undefined]);
  });

  test('a password link: its token opens it; another link’s, an old, an expired or an altered token does not', async () => {
    const first = await albumWithLink();
    const second = await albumWithLink();
    for (const { owner, collectionID } of [first, second]) {
      await links.updateLink(ctx(), owner.id, { collectionID, ...password });
    }
    await refused(open(first.token), 401, { error: 'password required' });
    // /info and /verify-password need no token.
    const entry = await links.checkLink(ctx(), presented(first.token), { password: false, admit: true });
    await refused(links.verifyLinkPassword(ctx(), entry, Buffer.alloc(32, 8).toString('base64')), 401);
    const jwt = await links.verifyLinkPassword(ctx(), entry, passHash);
    assert.equal((await open(first.token, { jwt })).collectionID, first.collectionID);

    await refused(open(second.token, { jwt }), 401);
    const [head, payload, mac] = jwt.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string };
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: String(Number(claims.sub) + 1) })).toString(
      'base64url',
    );
    for (const altered of [
      `${head}.${forged}.${mac}`,
      `${head}.${payload}.${mac.slice(0, -2)}AA`,
      `${jwt}x`,
      'a.b',
      '',
    ]) {
      await refused(open(first.token, { jwt: altered }), 401);
    }
    await links.updateLink(ctx(), first.owner.id, {
      collectionID: first.collectionID,
      ...password,
      passHash: Buffer.alloc(32, 9).toString('base64'),
    });
    await refused(open(first.token, { jwt }), 401);

    const again = await links.checkLink(ctx(), presented(first.token), { password: false, admit: false });
    const fresh = await links.verifyLinkPassword(ctx(), again, Buffer.alloc(32, 9).toString('base64'));
    await open(first.token, { jwt: fresh });
    testContext().clock.advance(366 * MICROS_PER_DAY);
    await refused(open(first.token, { jwt: fresh }), 401);
    await refused(
      links.verifyLinkPassword(
        ctx(),
        await links.checkLink(ctx(), presented(second.token), { password: false, admit: false }),
        '',
      ),
      401,
    );
  });

  test('password tries are limited per link, whatever the address: past the limit even the right hash waits', async () => {
    const { owner, collectionID, token } = await albumWithLink();
    await links.updateLink(ctx(), owner.id, { collectionID, ...password });
    const wrong = Buffer.alloc(32, 1).toString('base64');
    for (let i = 0; i < 5; i++) {
      const access = await links.checkLink(ctx(), presented(token, { ip: `198.51.100.${String(i)}` }), {
        password: false,
        admit: false,
      });
      await refused(links.verifyLinkPassword(ctx(), access, wrong), 401);
    }
    const access = await links.checkLink(ctx(), presented(token, { ip: '203.0.113.9' }), {
      password: false,
      admit: false,
    });
    await refused(links.verifyLinkPassword(ctx(), access, passHash), 429);
    const other = await albumWithLink();
    await links.updateLink(ctx(), other.owner.id, { collectionID: other.collectionID, ...password });
    const otherAccess = await links.checkLink(ctx(), presented(other.token), { password: false, admit: false });
    assert.ok(await links.verifyLinkPassword(ctx(), otherAccess, passHash));
  });

  test('the device limit admits devices seen before and no more new ones than the limit, even at once', async () => {
    const { owner, collectionID, token } = await albumWithLink({ deviceLimit: 2 });
    const device = (n: number) => ({ ip: `192.0.2.${String(n)}`, userAgent: `agent ${String(n)}` });
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => open(token, device(n))));
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 2);
    const refusedOnes = results.filter((result) => result.status === 'rejected');
    for (const result of refusedOnes) {
      assert.equal((result.reason as HttpError).status, 403);
      assert.equal((result.reason as HttpError).body.code, 'LINK_DEVICE_LIMIT_EXCEEDED');
    }
    const admitted = [1, 2, 3, 4, 5].filter((_, index) => results[index]?.status === 'fulfilled');
    for (const n of admitted) await open(token, device(n));
    // The same address with another browser is another device; file routes admit nobody new but count nobody.
    await refused(open(token, { ...device(admitted[0] ?? 0), userAgent: 'another' }), 403);
    await links.checkLink(ctx(), presented(token, device(9)), { password: true, admit: false });
    // Raising the limit lets the next one in; 0 is no limit.
    await links.updateLink(ctx(), owner.id, { collectionID, deviceLimit: 0 });
    await open(token, device(6));
    // Without a limit no device is recorded, so made-up user agents cannot grow the history.
    const history = `SELECT count(*)::int AS n FROM public_collection_access_history WHERE share_id IN
      (SELECT id FROM public_collection_tokens WHERE collection_id = ${String(collectionID)})`;
    assert.deepEqual(await testContext().sql(history), [{ n: 2 }]);
  });
});
