// From decrypted entity text to the vault's items, and back from what was written to a Code
// (docs/protocol.md#authenticator-data). Pure: no I/O, no state.
import { log } from '@ente/shared/log.ts';

import { legacyURI, parseCodeURI } from '../services/code-uri.ts';
import type { BrokenItem, Code, CodeData, VaultItem } from '../services/types.ts';

/**
 * The item of one decrypted entity: the text is a JSON string holding the code URI. The legacy object
 * form `{rawData, display}` mobile also reads is accepted: its `display` becomes the URI's codeDisplay
 * when the URI has none. Anything else is a BrokenItem with the text, kept visible.
 */
export function itemOf(id: string, updatedAt: number, text: string | null): VaultItem {
  if (text === null) return broken({ id, updatedAt, errorKey: 'vault.decryptionFailed' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return broken({ id, updatedAt, raw: text, errorKey: 'vault.notACode' });
  }
  const uri = typeof value === 'string' ? value : legacyURI(value);
  if (uri === undefined) return broken({ id, updatedAt, raw: text, errorKey: 'vault.notACode' });
  try {
    return { kind: 'code', code: { ...parseCodeURI(uri), id, updatedAt, uri } };
  } catch (e) {
    const errorKey = errorKeyOf(e) ?? 'vault.notACode';
    const item: BrokenItem = { id, updatedAt, raw: uri, errorKey };
    const values = (e as { values?: unknown } | null)?.values;
    if (typeof values === 'object' && values !== null) item.errorValues = values as Record<string, string>;
    const issuer = issuerHint(uri);
    if (issuer !== undefined) item.issuer = issuer;
    return broken(item);
  }
}

/** A Code from a URI we just wrote (as any reader will parse it), or from the data when it does not parse. */
export function codeOf(uri: string, id: string, updatedAt: number, data: CodeData): Code {
  try {
    return { ...parseCodeURI(uri), id, updatedAt, uri };
  } catch (e) {
    log.warn('A code we wrote does not parse back', e);
    return { ...data, id, updatedAt, uri };
  }
}

export function updatedAtOf(item: VaultItem): number {
  return item.kind === 'code' ? item.code.updatedAt : item.item.updatedAt;
}

function broken(item: BrokenItem): VaultItem {
  return { kind: 'broken', item };
}

/** The `errorKey` a parse error carries (CodeParseError of code-uri.ts). */
function errorKeyOf(e: unknown): string | undefined {
  const key = (e as { errorKey?: unknown } | null)?.errorKey;
  return typeof key === 'string' ? key : undefined;
}

/** A best-effort issuer of a URI that does not parse, for the broken item's title. */
function issuerHint(uri: string): string | undefined {
  try {
    const url = new URL(uri.replace(/#/g, '%23'));
    const param = url.searchParams.get('issuer');
    if (param) return param;
    const path = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const colon = path.indexOf(':');
    const issuer = colon >= 0 ? path.slice(0, colon) : path;
    return issuer || undefined;
  } catch {
    return undefined;
  }
}
