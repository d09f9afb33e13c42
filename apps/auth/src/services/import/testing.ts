// Shared test helper for the importer tests: reads the fixture files copied under
// apps/auth/test-fixtures/import/<folder>/ and their folder's expected.json, and checks an ImportResult
// against the entries listed there. Test code only; nothing in the app imports it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { CodeData } from '../types.ts';
import type { ImportFormat, ImportResult, SkipReason } from './types.ts';

// From src/services/import back to apps/auth; __dirname is what jest's CommonJS transform provides.
const fixturesRoot = path.resolve(__dirname, '../../../test-fixtures/import');

/** One entry of expected.json (`entries` or `unsupported`); values as the fixture notebook wrote them. */
export interface ExpectedEntry {
  type: string;
  issuer: string;
  account: string;
  /** Base32, upper case, no padding (absent for some unsupported entries). */
  secret?: string;
  /** Upper case in the fixtures ("SHA1"); compared case-insensitively. */
  algorithm: string;
  digits?: number;
  period?: number;
  counter?: number;
  tags?: string[];
  note?: string;
  pinned?: boolean;
}

/** What expected.json says about one file. */
export interface ExpectedFile {
  format: string;
  password?: string;
  entries: ExpectedEntry[];
  unsupported?: ExpectedEntry[];
  /** Present for a deliberately invalid file. */
  error?: string;
}

export interface ExpectedFolder {
  source: Record<string, unknown>;
  files: Record<string, ExpectedFile>;
  notes?: string;
}

export function fixturePath(folder: string, file: string): string {
  return path.join(fixturesRoot, folder, file);
}

export function readFixture(folder: string, file: string): Buffer {
  return readFileSync(fixturePath(folder, file));
}

export function readFixtureText(folder: string, file: string): string {
  return readFixture(folder, file).toString('utf8');
}

export function expectedOf(folder: string): ExpectedFolder {
  return JSON.parse(readFixtureText(folder, 'expected.json')) as ExpectedFolder;
}

/** The expected.json record of one file; throws when the file is not listed (a typo in a test). */
export function expectedFile(folder: string, file: string): ExpectedFile {
  const expected = expectedOf(folder).files[file];
  if (!expected) throw new Error(`${folder}/${file} is not listed in expected.json`);
  return expected;
}

/** The reason an unsupported entry should be skipped with, and the detail naming the offending value. */
function unsupportedReason(entry: ExpectedEntry): { reason: SkipReason; detail: string } {
  const supportedType = ['totp', 'hotp', 'steam'].includes(entry.type.toLowerCase());
  return supportedType
    ? { reason: 'unsupportedAlgorithm', detail: entry.algorithm.toLowerCase() }
    : { reason: 'unsupportedType', detail: entry.type.toLowerCase() };
}

/**
 * The result's codes are exactly `entries` (matched by secret; type, algorithm, digits, period or counter,
 * issuer and account equal; tags, note and pinned equal when listed, empty otherwise), and each of
 * `unsupported` is in `skipped` (matched by issuer and account) with the reason its type or algorithm
 * calls for. `skipped` holds nothing else unless `allowOtherSkips` is set.
 */
export function expectMatchesExpected(
  result: ImportResult,
  entries: ExpectedEntry[],
  unsupported: ExpectedEntry[] = [],
  { allowOtherSkips = false }: { allowOtherSkips?: boolean } = {},
): void {
  expect(result.codes).toHaveLength(entries.length);
  const unmatched = [...result.codes];
  for (const entry of entries) {
    // Several entries may share a secret (one key under several names): prefer the code with the same
    // names, then the same account, then any with that secret (the comparison below then shows the diff).
    const sameSecret = (code: CodeData) => code.secret === entry.secret;
    let index = unmatched.findIndex(
      (code) => sameSecret(code) && code.issuer === entry.issuer && code.account === entry.account,
    );
    if (index < 0) index = unmatched.findIndex((code) => sameSecret(code) && code.account === entry.account);
    if (index < 0) index = unmatched.findIndex(sameSecret);
    if (index < 0) throw new Error(`no code with the secret of ${entry.issuer}:${entry.account}`);
    const [code] = unmatched.splice(index, 1);
    const hotp = entry.type.toLowerCase() === 'hotp';
    expect({
      type: code?.type,
      issuer: code?.issuer,
      account: code?.account,
      algorithm: code?.algorithm,
      digits: code?.digits,
      ...(hotp ? { counter: code?.counter } : { period: code?.period }),
      tags: code?.display.tags,
      note: code?.display.note,
      pinned: code?.display.pinned,
    }).toEqual({
      type: entry.type.toLowerCase(),
      issuer: entry.issuer,
      account: entry.account,
      algorithm: entry.algorithm.toLowerCase(),
      digits: entry.digits ?? 6,
      ...(hotp ? { counter: entry.counter ?? 0 } : { period: entry.period ?? 30 }),
      tags: entry.tags ?? [],
      note: entry.note ?? '',
      pinned: entry.pinned ?? false,
    });
  }
  for (const entry of unsupported) {
    const skip = result.skipped.find((s) => s.issuer === entry.issuer && s.account === entry.account);
    const want = unsupportedReason(entry);
    expect({ reason: skip?.reason, detail: skip?.detail?.toLowerCase() }).toEqual(want);
  }
  if (!allowOtherSkips) expect(result.skipped).toHaveLength(unsupported.length);
}

// expected.json names formats in its own words; these are the ImportFormat each stands for.
const formatNames: Record<string, ImportFormat> = {
  'otpauth-list': 'otpauth-list',
  'ente-plain': 'ente-plain',
  'ente-encrypted': 'ente-encrypted',
  'aegis-json': 'aegis',
  'aegis-json-encrypted': 'aegis-encrypted',
  '2fas': '2fas',
  '2fas-encrypted': '2fas-encrypted',
  'bitwarden-json': 'bitwarden-json',
  'bitwarden-csv': 'bitwarden-csv',
  'ga-migration-uris': 'google-migration',
  'proton-authenticator-json': 'proton',
  'proton-authenticator-json-encrypted': 'proton-encrypted',
  'andotp-json': 'andotp',
  'andotp-encrypted': 'andotp-encrypted',
  'freeotp-plus-json': 'freeotp-plus',
};

/** The ImportFormat a parser should report for a format named in expected.json (undefined: none, e.g. images). */
export function importFormatOf(expectedFormat: string): ImportFormat | undefined {
  return formatNames[expectedFormat];
}

/** Shorthand: checks a result (format included) against the expected.json record of `folder/file`. */
export function expectMatchesFixture(result: ImportResult, folder: string, file: string): void {
  const expected = expectedFile(folder, file);
  expect(result.format).toBe(importFormatOf(expected.format));
  expectMatchesExpected(result, expected.entries, expected.unsupported ?? []);
}
