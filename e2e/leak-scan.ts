// The leak scan's machinery: every form a secret could take in storage (raw bytes, UTF-8, hex, base64,
// base64url, padded or not), a search for many of them at once, and the readers of what the server
// kept: every row of every table of its database (through PGlite, once the server has stopped), every
// byte of the database folder (including the write-ahead log and dead rows), and its log.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { PGlite } from '@electric-sql/pglite';

/** One encoding of one secret. */
export interface Needle {
  /** e.g. "masterKey #1 as b64url" */
  label: string;
  bytes: Buffer;
}

const encodings: [string, (bytes: Buffer) => string | Buffer][] = [
  ['raw bytes / UTF-8', (bytes) => bytes],
  ['b64', (bytes) => bytes.toString('base64')],
  ['b64 without padding', (bytes) => bytes.toString('base64').replace(/=+$/, '')],
  ['b64url', (bytes) => bytes.toString('base64url').padEnd(Math.ceil(bytes.length / 3) * 4, '=')],
  ['b64url without padding', (bytes) => bytes.toString('base64url')],
  ['hex', (bytes) => bytes.toString('hex')],
  ['HEX', (bytes) => bytes.toString('hex').toUpperCase()],
];

/** Every encoding of `bytes` (a key's raw bytes, or a text secret's UTF-8). */
export function needlesOf(label: string, bytes: Uint8Array): Needle[] {
  const raw = Buffer.from(bytes);
  const seen = new Set<string>();
  const needles: Needle[] = [];
  for (const [name, encode] of encodings) {
    const encoded = encode(raw);
    const needle = typeof encoded === 'string' ? Buffer.from(encoded, 'utf8') : encoded;
    const key = needle.toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    needles.push({ label: `${label} as ${name}`, bytes: needle });
  }
  return needles;
}

/** The shortest needle the search accepts: anything shorter could match by chance. */
export const minNeedleBytes = 8;

/**
 * The labels of the needles found in `haystack`. Needles are indexed by their first four bytes, so one
 * pass over the haystack finds all of them.
 */
export function findNeedles(haystack: Buffer, needles: readonly Needle[]): string[] {
  const byPrefix = new Map<number, Needle[]>();
  for (const needle of needles) {
    if (needle.bytes.length < minNeedleBytes) throw new Error(`${needle.label} is too short to search for`);
    const prefix = needle.bytes.readUInt32LE(0);
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), needle]);
  }
  const found = new Set<string>();
  for (let i = 0; i + 4 <= haystack.length; i++) {
    const candidates = byPrefix.get(haystack.readUInt32LE(i));
    if (!candidates) continue;
    for (const needle of candidates) {
      if (i + needle.bytes.length > haystack.length) continue;
      if (haystack.compare(needle.bytes, 0, needle.bytes.length, i, i + needle.bytes.length) === 0) {
        found.add(needle.label);
      }
    }
  }
  return [...found];
}

/** One column of one table, all its values one after the other (each as text, or its bytes for bytea). */
export interface ColumnDump {
  table: string;
  column: string;
  rows: number;
  contents: Buffer;
}

/**
 * Every column of every table of the database in `dataDir` (every schema but PostgreSQL's own). The
 * folder must not be in use: PGlite allows one process per folder.
 */
export async function dumpDatabase(dataDir: string): Promise<ColumnDump[]> {
  const db = await PGlite.create({ dataDir });
  try {
    const tables = await db.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
       ORDER BY 1, 2`,
    );
    const dumps: ColumnDump[] = [];
    for (const { schema, name } of tables.rows) {
      const quoted = `"${schema.replaceAll('"', '""')}"."${name.replaceAll('"', '""')}"`;
      const result = await db.query<Record<string, unknown>>(`SELECT * FROM ${quoted}`);
      for (const { name: column } of result.fields) {
        const values = result.rows.map((row) => cellBytes(row[column]));
        dumps.push({
          table: `${schema}.${name}`,
          column,
          rows: result.rows.length,
          contents: Buffer.concat(values.flatMap((value) => [value, Buffer.from('\n')])),
        });
      }
    }
    return dumps;
  } finally {
    await db.close();
  }
}

function cellBytes(value: unknown): Buffer {
  if (value === null || value === undefined) return Buffer.alloc(0);
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') {
    return Buffer.from(String(value));
  }
  if (value instanceof Date) return Buffer.from(value.toISOString());
  return Buffer.from(
    JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? String(inner) : inner)),
  );
}

/** Every file under `folder`, with its path relative to it. */
export async function readFolder(folder: string): Promise<{ file: string; contents: Buffer }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  return Promise.all(
    files.map(async (entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return { file: path.relative(folder, full), contents: await readFile(full) };
    }),
  );
}
