// The diff page cache on its own (bytes bound, recency, one make per key at a time), then through the
// collections service: a page is served again only while its collection has not changed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { suiteContext } from '../testing/context.ts';
import { collectionDiff, fixtureAlbum, fixtureFile, fixtureUser } from '../testing/photo-fixtures.ts';
import { refused } from '../testing/refusals.ts';
import { collectionDiffJson } from './collections.ts';
import { DiffPages } from './diff-pages.ts';

const bytes = (size: number, fill = 1) => Promise.resolve(Buffer.alloc(size, fill));

describe('DiffPages', () => {
  test('a kept page is served without making it again', async () => {
    const pages = new DiffPages(1000);
    let made = 0;
    const make = () => {
      made++;
      return bytes(10);
    };
    const first = await pages.page('a', make);
    assert.equal(await pages.page('a', make), first);
    assert.equal(made, 1);
  });

  test('requests for a page being made wait for that one making', async () => {
    const pages = new DiffPages(1000);
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
    const pages = new DiffPages(1000);
    await assert.rejects(pages.page('a', () => Promise.reject(new Error('database down'))));
    assert.equal((await pages.page('a', () => bytes(3))).length, 3);
  });

  test('past the bound the least recently used page goes; a page over a quarter of it is never kept', async () => {
    const pages = new DiffPages(100);
    await pages.page('a', () => bytes(25));
    await pages.page('b', () => bytes(25));
    await pages.page('a', () => bytes(25, 9)); // a is used again: b is now the oldest
    await pages.page('c', () => bytes(25));
    await pages.page('d', () => bytes(25));
    assert.equal(pages.bytes, 100);
    await pages.page('e', () => bytes(25));
    assert.equal(pages.bytes, 100);
    assert.equal((await pages.page('a', () => bytes(25, 7)))[0], 1, 'a was kept');
    assert.equal((await pages.page('b', () => bytes(25, 7)))[0], 7, 'b was dropped and made again');
    const big = await pages.page('big', () => bytes(26));
    assert.notEqual(await pages.page('big', () => bytes(26)), big);
  });
});

describe('collection diff pages', () => {
  const testContext = suiteContext();
  const ctx = () => testContext().ctx;

  test('the same page while nothing changes; a new file makes a new one, and a new cursor its own', async () => {
    const owner = await fixtureUser(ctx());
    const album = await fixtureAlbum(ctx(), owner.id);
    await fixtureFile(ctx(), owner.id, album);
    const first = await collectionDiffJson(ctx(), owner.id, album, 0);
    assert.equal(await collectionDiffJson(ctx(), owner.id, album, 0), first, 'served again');

    const added = await fixtureFile(ctx(), owner.id, album);
    const after = await collectionDiff(ctx(), owner.id, album, 0);
    assert.equal(after.diff.length, 2);
    assert.ok(after.diff.some((file) => file.id === added.id));
    const cursor = Math.max(...after.diff.map((file) => file.updationTime));
    assert.deepEqual((await collectionDiff(ctx(), owner.id, album, cursor)).diff, []);
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
