// Finding codes in the list: the search, the sort orders (pinned codes first, as in Ente's apps), the
// tags in use, and the duplicate check the editor and the import run before saving. Pure functions over
// the codes; the list keeps its own state.
import { base32Decode, normalisedSecret } from './base32.ts';
import type { CodeData } from './types.ts';
import { withoutHiddenText } from './visible-text.ts';

export type SortMode = 'issuer' | 'account' | 'recent' | 'manual';

/**
 * Search text: without the characters that draw nothing (so "google" finds "goo\u200Bgle", which the
 * list shows with its marker), compatibility-normalised (NFKC, so full-width and ligature forms match)
 * and lower case.
 */
function folded(text: string): string {
  return withoutHiddenText(text).normalize('NFKC').toLowerCase();
}

// Codes are immutable objects (an edit makes a new one), so their folded fields can be kept per object.
const searchFields = new WeakMap<CodeData, string[]>();

function fieldsOf(code: CodeData): string[] {
  let fields = searchFields.get(code);
  if (fields === undefined) {
    fields = [code.issuer, code.account, code.display.note, ...code.display.tags].map(folded);
    searchFields.set(code, fields);
  }
  return fields;
}

/**
 * Whether a code matches what was typed in the search box: every word of the query (case and Unicode
 * form ignored) occurs in the issuer, the account, the note or a tag. An empty query matches all.
 */
export function matchesSearch(code: CodeData, query: string): boolean {
  const words = folded(query.trim())
    .split(/\s+/u)
    .filter((word) => word !== '');
  if (words.length === 0) return true;
  const fields = fieldsOf(code);
  return words.every((word) => fields.some((field) => field.includes(word)));
}

const issuerCollator = new Intl.Collator();
const naturalCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Non-empty values first, then `collator` order. */
function compareText(a: string, b: string, collator: Intl.Collator): number {
  const emptyA = a.trim() === '';
  const emptyB = b.trim() === '';
  if (emptyA !== emptyB) return emptyA ? 1 : -1;
  return collator.compare(a, b);
}

function byIssuer(a: CodeData, b: CodeData): number {
  return compareText(a.issuer, b.issuer, issuerCollator) || compareText(a.account, b.account, naturalCollator);
}

function byAccount(a: CodeData, b: CodeData): number {
  return compareText(a.account, b.account, naturalCollator) || compareText(a.issuer, b.issuer, issuerCollator);
}

const comparators: Record<SortMode, (a: CodeData, b: CodeData) => number> = {
  issuer: byIssuer,
  account: byAccount,
  recent: (a, b) => b.display.lastUsedAt - a.display.lastUsedAt || byIssuer(a, b),
  manual: (a, b) => a.display.position - b.display.position || byIssuer(a, b),
};

/**
 * The codes in list order, as a new array: pinned ones first, then by `mode` — issuer (Ente web's
 * `localeCompare`, codes without an issuer last, ties by account in natural, case-insensitive order),
 * account, most recently used, or manual position — and by issuer when the mode ties. Equal codes keep
 * their order.
 */
export function sortCodes<T extends CodeData>(codes: readonly T[], mode: SortMode): T[] {
  const compare = comparators[mode];
  return [...codes].sort((a, b) => Number(b.display.pinned) - Number(a.display.pinned) || compare(a, b));
}

/** The distinct tags of the codes not in the trash, sorted. */
export function allTags(codes: readonly CodeData[]): string[] {
  const tags = new Set<string>();
  for (const code of codes) {
    if (code.display.trashed) continue;
    for (const tag of code.display.tags) if (tag.trim() !== '') tags.add(tag);
  }
  return [...tags].sort((a, b) => issuerCollator.compare(a, b));
}

// What makes two codes the same code: they give the same values. The secret is compared as bytes (a
// Base32 spelling in other case, with spaces, padding or other spare bits is the same secret); the
// parameters that change the values count too, so SHA-256/8 digits/15 s beside SHA-1/6/30 on one secret
// (Aegis' own test vault has such a pair) are two codes. Issuer, account and display data never count.
const identities = new WeakMap<CodeData, string>();

/** A string equal for two codes exactly when they give the same values (see above). */
export function codeIdentity(data: CodeData): string {
  let identity = identities.get(data);
  if (identity === undefined) {
    const canonical = normalisedSecret(data.secret);
    // A stored secret that is not Base32 (another app wrote it) is compared as written.
    const secret = canonical === undefined ? `raw:${data.secret}` : base32Decode(canonical).join(',');
    const moving = data.type === 'hotp' ? `counter ${String(data.counter)}` : `period ${String(data.period)}`;
    identity = [data.type, secret, data.algorithm, String(data.digits), moving].join('|');
    identities.set(data, identity);
  }
  return identity;
}

/**
 * The code `data` would duplicate: one that gives the same values (`codeIdentity`: type, secret bytes,
 * algorithm, digits and period or counter), whatever its issuer, account or display data (imports often
 * label the same code differently). A code outside the trash is preferred. When `data` is a code of the
 * vault (it has an `id`), that code itself does not count.
 */
export function duplicateOf<T extends CodeData & { id?: string }>(
  data: CodeData & { id?: string },
  codes: readonly T[],
): T | undefined {
  const identity = codeIdentity(data);
  const same = codes.filter(
    (code) => (data.id === undefined || code.id !== data.id) && codeIdentity(code) === identity,
  );
  return same.find((code) => !code.display.trashed) ?? same[0];
}
