// Cast without HTTP (docs/protocol.md#cast): the purge keeps what may still pair or cast and removes the rest
// (an unpaired code after its hour, a cast after a week unused, a revoked one); a playing screen moves its idle
// clock at most once an hour, and that is what keeps its cast from the purge; a cast token reaches the files of
// its own album only, and a trashed one no more.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_MINUTE } from '../lib/clock.ts';
import { sha256B64Url } from '../lib/hashing.ts';
import { suiteContext } from '../testing/context.ts';
import { fixtureAlbum, fixtureFile, fixtureUser } from '../testing/photo-fixtures.ts';
import { refused } from '../testing/refusals.ts';
import * as cast from './cast.ts';
import { purgeExpired } from './maintenance.ts';
import type { ObjectStore } from './object-store.ts';
import { issueToken } from './tokens.ts';
import { trashFiles } from './trash.ts';

/** A store whose signed GET names the key (what the token may reach is the point here, not signing). */
const namingStore = { presignGet: (key: string) => Promise.resolve(`/signed/${key}`) } as unknown as ObjectStore;
const client = { ip: '192.0.2.7', userAgent: 'test' };
const publicKey = Buffer.alloc(32, 1).toString('base64');

describe('cast', () => {
  const testContext = suiteContext();
  const ctx = () => testContext().ctx;
  const advance = (micros: number) => testContext().clock.advance(micros);
  const rowsOf = async (code: string) => testContext().sql(`SELECT last_used_at FROM casting WHERE code = '${code}'`);

  let tokens = 0;
  /** A screen paired by a new owner with an album holding one file; its code, cast token and the file. */
  async function pairedScreen() {
    const owner = await fixtureUser(ctx(), 'cast');
    const collectionID = await fixtureAlbum(ctx(), owner.id);
    const file = await fixtureFile(ctx(), owner.id, collectionID);
    const session = await issueToken(ctx(), owner.id, 'photos', client);
    const code = await cast.registerCastDevice(ctx(), publicKey, client);
    const castToken = `cast_${String(++tokens).padStart(22, 'c')}`;
    const sender = { userID: owner.id, app: 'photos', tokenHash: sha256B64Url(session) };
    const pairing = { deviceCode: code, collectionID, castToken, encPayload: Buffer.alloc(100).toString('base64') };
    await cast.publishCast(ctx(), sender, pairing, client);
    return { owner, collectionID, file, code, castToken };
  }

  test('the purge: an unpaired code goes after its hour, a revoked cast at once, an idle one after a week', async () => {
    const waiting = await cast.registerCastDevice(ctx(), publicKey, client);
    const playing = await pairedScreen();
    const revoked = await pairedScreen();
    await cast.revokeAllCasts(ctx(), revoked.owner.id);
    advance(59 * MICROS_PER_MINUTE);
    await purgeExpired(ctx());
    assert.equal((await rowsOf(waiting)).length, 1, 'a code inside its hour stays');
    assert.equal((await rowsOf(revoked.code)).length, 0);
    advance(2 * MICROS_PER_MINUTE);
    await purgeExpired(ctx());
    assert.equal((await rowsOf(waiting)).length, 0, 'a code past its hour goes');
    assert.equal((await rowsOf(playing.code)).length, 1, 'a cast stays past the hour');
    advance(7 * MICROS_PER_DAY);
    await purgeExpired(ctx());
    assert.equal((await rowsOf(playing.code)).length, 0, 'a cast unused for a week goes');
  });

  test('a playing screen moves its idle clock once an hour, which keeps it past a week', async () => {
    const { owner, collectionID, code, castToken } = await pairedScreen();
    const lastUsed = async () => {
      const [row] = (await rowsOf(code)) as { last_used_at: string }[];
      return Number(row?.last_used_at);
    };
    const paired = await lastUsed();
    advance(30 * MICROS_PER_MINUTE);
    await cast.checkCastToken(ctx(), castToken);
    assert.equal(await lastUsed(), paired, 'within the hour nothing is written');
    advance(31 * MICROS_PER_MINUTE);
    await cast.checkCastToken(ctx(), castToken);
    assert.equal(await lastUsed(), paired + 61 * MICROS_PER_MINUTE);
    for (let day = 0; day < 8; day++) {
      advance(MICROS_PER_DAY);
      await cast.checkCastToken(ctx(), castToken);
      await purgeExpired(ctx());
    }
    advance(MICROS_PER_HOUR);
    assert.deepEqual(await cast.checkCastToken(ctx(), castToken), { collectionID, userID: owner.id });
    await refused(cast.checkCastToken(ctx(), `${castToken}x`), 401, { error: 'invalid token' });
    await refused(cast.checkCastToken(ctx(), undefined), 401, { error: 'cast access token missing' });
  });

  test('the token reaches its album’s live files only', async () => {
    const { owner, collectionID, file, castToken } = await pairedScreen();
    const access = await cast.checkCastToken(ctx(), castToken);
    assert.deepEqual(access, { collectionID, userID: owner.id });
    assert.equal(
      await cast.castFileUrl(ctx(), namingStore, access, file.id, 'thumbnail'),
      `/signed/${file.objects.thumbnail}`,
    );
    const other = await pairedScreen();
    await refused(cast.castFileUrl(ctx(), namingStore, access, other.file.id, 'file'), 404);
    await trashFiles(ctx(), owner.id, [{ fileID: file.id, collectionID }]);
    await refused(cast.castFileUrl(ctx(), namingStore, access, file.id, 'file'), 404);
  });
});
