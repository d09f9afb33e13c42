// The prepared-statement dialect answers what PGlite's own query() answers, prepares each text once, keeps
// a bounded number of statements, and recovers from errors and from a schema change under a statement.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';

import { createPglite } from './database.ts';
import { isUniqueViolation } from './errors.ts';
import { MAX_PREPARED_STATEMENTS, PreparedPGliteDialect } from './pglite-dialect.ts';

interface Row {
  id: string;
  name: string | null;
  data: Uint8Array | null;
  doc: unknown;
  flag: boolean | null;
}

interface Tables {
  things: Row;
}

describe('PreparedPGliteDialect', () => {
  let pglite: PGlite;
  let db: Kysely<Tables>;

  before(async () => {
    pglite = await createPglite();
    db = new Kysely<Tables>({ dialect: new PreparedPGliteDialect(pglite) });
    await sql`CREATE TABLE things (id BIGINT PRIMARY KEY, name TEXT UNIQUE, data BYTEA, doc JSONB, flag BOOLEAN)`.execute(
      db,
    );
  });
  after(() => db.destroy());

  const preparedCount = async (like: string) =>
    Number(
      (
        await pglite.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE $1`,
          [like],
        )
      ).rows[0]?.n,
    );

  test('values and rows are what PGlite’s query() gives, int8 as a string', async () => {
    const bytes = new Uint8Array([0, 1, 254, 255]);
    const inserted = await db
      .insertInto('things')
      .values({
        id: '9007199254740993',
        name: 'é ✓ \u{1F600}',
        data: bytes,
        doc: JSON.stringify({ a: [1, 'x'] }),
        flag: true,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const direct = await pglite.query<Row>('SELECT * FROM things WHERE id = $1', ['9007199254740993']);
    assert.deepEqual(inserted, direct.rows[0]);
    assert.equal(inserted.id, '9007199254740993');
    assert.deepEqual(inserted.data, bytes);
    assert.deepEqual(inserted.doc, { a: [1, 'x'] });
    assert.equal(inserted.flag, true);

    const nulls = await db
      .insertInto('things')
      .values({ id: '2', name: null, data: null, doc: null, flag: null })
      .returning(['name', 'data', 'flag'])
      .executeTakeFirstOrThrow();
    assert.deepEqual(nulls, { name: null, data: null, flag: null });
  });

  test('affected rows are counted for writes without RETURNING', async () => {
    await db
      .insertInto('things')
      .values([
        { id: '10', name: 'a' },
        { id: '11', name: 'b' },
      ])
      .execute();
    const updated = await db
      .updateTable('things')
      .set({ flag: false })
      .where('id', 'in', ['10', '11', '12'])
      .executeTakeFirst();
    assert.equal(updated.numUpdatedRows, 2n);
    const deleted = await db.deleteFrom('things').where('id', '=', '10').executeTakeFirst();
    assert.equal(deleted.numDeletedRows, 1n);
    assert.deepEqual(await db.selectFrom('things').select('id').where('id', '=', '10').execute(), []);
  });

  test('a text is prepared once, whatever its parameters', async () => {
    const find = (id: string) => db.selectFrom('things').select('name').where('id', '=', id).where('flag', 'is', null);
    for (const id of ['2', '11', '404']) await find(id).execute();
    assert.equal(await preparedCount('%"flag" is null%'), 1);
    assert.equal((await find('11').executeTakeFirst())?.name, undefined);
    assert.equal((await find('2').executeTakeFirst())?.name, null);
  });

  test(`no more than ${MAX_PREPARED_STATEMENTS} statements stay prepared`, async () => {
    for (let i = 0; i < MAX_PREPARED_STATEMENTS + 20; i++) {
      const row = await sql<{ n: number }>`SELECT ${sql.lit(i)}::int AS n, 'bound' AS tag`.execute(db);
      assert.equal(row.rows[0]?.n, i);
    }
    const total = Number(
      (await pglite.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]?.n,
    );
    assert.ok(total <= MAX_PREPARED_STATEMENTS + 1, `${total} statements prepared`);
    assert.equal(await preparedCount(`SELECT 0::int AS n, 'bound'%`), 0, 'the least recently used went first');
    assert.equal(await preparedCount(`SELECT ${MAX_PREPARED_STATEMENTS + 19}::int AS n, 'bound'%`), 1);
  });

  test('a failed statement reports its SQLSTATE, and the next one runs', async () => {
    await assert.rejects(sql`SELEC 1`.execute(db), { code: '42601' });
    const duplicate = await db
      .insertInto('things')
      .values({ id: '20', name: 'b' })
      .execute()
      .catch((error: unknown) => error);
    assert.ok(isUniqueViolation(duplicate));
    assert.equal((await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows[0]?.one, 1);
  });

  test('a transaction commits as one and rolls back as one', async () => {
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('things').values({ id: '30', name: 'c' }).execute();
      await tx.insertInto('things').values({ id: '31', name: 'd' }).execute();
    });
    await assert.rejects(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('things').values({ id: '32', name: 'e' }).execute();
        await tx.insertInto('things').values({ id: '33', name: 'c' }).execute();
      }),
      { code: '23505' },
    );
    const ids = await db
      .selectFrom('things')
      .select('id')
      .where('id', 'in', ['30', '31', '32', '33'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      ids.map((row) => row.id),
      ['30', '31'],
    );
    assert.equal(pglite.isInTransaction(), false);
  });

  test('a statement whose columns a migration changed is prepared again', async () => {
    const all = () => sql<Record<string, unknown>>`SELECT * FROM things WHERE id = ${'30'}`.execute(db);
    assert.deepEqual(Object.keys((await all()).rows[0] ?? {}), ['id', 'name', 'data', 'doc', 'flag']);
    await sql`ALTER TABLE things ADD COLUMN extra TEXT DEFAULT 'new'`.execute(db);
    assert.equal((await all()).rows[0]?.extra, 'new');
  });
});
