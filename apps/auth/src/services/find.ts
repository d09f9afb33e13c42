// Finding codes in the list: the search, the sort orders (pinned codes first, as in Ente's apps), the
// tags in use, and the duplicate check the editor runs before saving. Pure functions over the codes; the
// list keeps its own state.
import type { CodeData } from './types.ts';

export type SortMode = 'issuer' | 'account' | 'recent' | 'manual';

/** Search text: compatibility-normalised (NFKC, so full-width and ligature forms match) and lower case. */
function folded(text: string): string {
  return text.normalize('NFKC').toLowerCase();
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

/**
 * The code `data` would duplicate: one of the same type with the same secret, whatever its issuer,
 * account or other parameters (the secret is the credential; imports often label the same one
 * differently). A code outside the trash is preferred. When `data` is a code of the vault (it has an
 * `id`), that code itself does not count.
 */
export function duplicateOf<T extends CodeData & { id?: string }>(
  data: CodeData & { id?: string },
  codes: readonly T[],
): T | undefined {
  const same = codes.filter(
    (code) => code.secret === data.secret && code.type === data.type && (data.id === undefined || code.id !== data.id),
  );
  return same.find((code) => !code.display.trashed) ?? same[0];
}
