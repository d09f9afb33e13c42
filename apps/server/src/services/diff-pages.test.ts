// The diff page cache on its own (bytes bound, recency, one make per key at a time), then through the
// collections service: a page is served again only while its collection has not changed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { suiteContext } from '../testing/context.ts';
import { collectionDiff, fixtureAlbum, fixtureFile, fixtureUser } from '../testing/photo-fixtures.ts';
import { refused } from '../testing/refusals.ts';
import { collectionDiffJson } from './collections.ts';
import { DiffPages, SMALLEST_KEPT_PAGE } from './diff-pages.ts';

const bytes = (size: number, fill = 1) => Promise.resolve(Buffer.alloc(size, fill));
/** A page big enough to be kept, and what it costs under a one-letter key (its bytes, the key, 256). */
const PAGE = SMALLEST_KEPT_PAGE + 1000;
const COST = PAGE + 2 + 256;

describe('DiffPages', () => {
  test('a kept page is served without making it again', async () => {
    const pages = new DiffPages(10 * COST);
    let made = 0;
    const make = () => {
      made++;
      return bytes(PAGE);
    };
    const first = await pages.page('a', make);
    assert.equal(await pages.page('a', make), first);
    assert.equal(made, 1);
  });

  test('a page under 4 KiB is made again each time (it would hold a whole pooled 8 KiB buffer)', async () => {
    const pages = new DiffPages(10 * COST);
    let made = 0;
    const make = () => {
      made++;
      return bytes(SMALLEST_KEPT_PAGE - 1);
    };
    await pages.page('a', make);
    await pages.page('a', make);
    assert.equal(made, 2);
    assert.equal(pages.bytes, 0);
  });

  test('requests for a page being made wait for that one making', async () => {
    const pages = new DiffPages(10 * COST);
    let made = 0;
    let release: (value: Buffer) => void = () => {};
    const make = () => {
      made++;
      return new Promise<Buffer>((resolve) => (release = resolve));
    };
    const waiting = [pages.page('a', make), pages.page('a', make), pages.page('a', make)];
    release(Buffer.from('page'));
    const answers = await Promise.all(waiting);
    assert.equal(made, 1);
    assert.ok(answers.every((answer) => answer.toString() === 'page'));
  });

  test('a failed making is not kept: the next request makes it again', async () => {
    const pages = new DiffPages(10 * COST);
    await assert.rejects(pages.page('a', () => Promise.reject(new Error('database down'))));
    assert.equal((await pages.page('a', () => bytes(PAGE))).length, PAGE);
  });

  test('past the bound the least recently used page goes; a page over a quarter of it is never kept', async () => {
    const pages = new DiffPages(4 * COST);
    await pages.page('a', () => bytes(PAGE));
    await pages.page('b', () => bytes(PAGE));
    await pages.page('a', () => bytes(PAGE, 9)); // a is used again: b is now the oldest
    await pages.page('c', () => bytes(PAGE));
    await pages.page('d', () => bytes(PAGE));
    assert.equal(pages.bytes, 4 * COST);
    await pages.page('e', () => bytes(PAGE));
    assert.equal(pages.bytes, 4 * COST);
    assert.equal((await pages.page('a', () => bytes(PAGE, 7)))[0], 1, 'a was kept');
    assert.equal((await pages.page('b', () => bytes(PAGE, 7)))[0], 7, 'b was dropped and made again');
    const big = await pages.page('big', () => bytes(COST));
    assert.notEqual(await pages.page('big', () => bytes(COST)), big);
  });
});

describe('collection diff pages', () => {
  const testContext = suiteContext();
  const ctx = () => testContext().ctx;

  test('the same page while nothing changes; a new file makes a new one, and a new cursor its own', async () => {
    const owner = await fixtureUser(ctx());
    const album = await fixtureAlbum(ctx(), owner.id);
    // Enough files for a page that is kept (over 4 KiB).
    for (let i = 0; i < 12; i++) await fixtureFile(ctx(), owner.id, album);
    const first = await collectionDiffJson(ctx(), owner.id, album, 0);
    assert.ok(first.length >= SMALLEST_KEPT_PAGE, `a page of ${String(first.length)} bytes`);
    assert.equal(await collectionDiffJson(ctx(), owner.id, album, 0), first, 'served again');

    const added = await fixtureFile(ctx(), owner.id, album);
    const after = await collectionDiff(ctx(), owner.id, album, 0);
    assert.equal(after.diff.length, 13);
    assert.ok(after.diff.some((file) => file.id === added.id));
    const cursor = Math.max(...after.diff.map((file) => file.updationTime));
    const kept = ctx().diffPages.bytes;
    for (const since of [cursor, cursor + 1, cursor + 2]) {
      assert.equal((await collectionDiffJson(ctx(), owner.id, album, since)).toString(), '{"diff":[],"hasMore":false}');
    }
    assert.equal(ctx().diffPages.bytes, kept, 'cursors at or past the latest change keep nothing');
  });

  test('who may read is checked before the page: a stranger gets 404 for a page others have fetched', async () => {
    const owner = await fixtureUser(ctx());
    const stranger = await fixtureUser(ctx());
    const album = await fixtureAlbum(ctx(), owner.id);
    await fixtureFile(ctx(), owner.id, album);
    await collectionDiffJson(ctx(), owner.id, album, 0);
    await refused(collectionDiffJson(ctx(), stranger.id, album, 0), 404);
  });
});
