// Changes to codes that the editor and the list make through the vault (`vault.update(code, data)`):
// renaming a tag across the vault, advancing a HOTP counter, and the plain URI a phone app scans; and the
// labels of a new or edited code without characters that draw nothing (`withoutHiddenLabels`).
// Each returns new data and leaves everything else of the code as it was (unknown `codeDisplay` keys and
// unknown URI parameters included).
import { codeURI } from './code-uri.ts';
import type { Code, CodeData } from './types.ts';
import { withoutHiddenText } from './visible-text.ts';

/** What a code holds, without the entity around it (id, updatedAt, the stored URI). */
export function codeData(code: Code): CodeData {
  return {
    type: code.type,
    issuer: code.issuer,
    account: code.account,
    secret: code.secret,
    algorithm: code.algorithm,
    digits: code.digits,
    period: code.period,
    counter: code.counter,
    display: code.display,
    unknownParams: code.unknownParams,
  };
}

/**
 * Tags as stored: without characters that draw nothing (visible-text.ts), trimmed, without
 * empty ones or repeats, in the order given.
 */
export function normalisedTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => withoutHiddenText(tag).trim()).filter((tag) => tag !== ''))];
}

/**
 * `data` with issuer, account, note and tags free of the characters that draw nothing (bidi controls,
 * zero-width characters, …: visible-text.ts): what a code typed, read from a link or an
 * image, or imported keeps. The same object when there was nothing to remove.
 */
export function withoutHiddenLabels<T extends CodeData>(data: T): T {
  const { issuer, account, display } = data;
  const clean = {
    issuer: withoutHiddenText(issuer),
    account: withoutHiddenText(account),
    note: withoutHiddenText(display.note),
    tags: display.tags.some((tag) => withoutHiddenText(tag) !== tag) ? normalisedTags(display.tags) : display.tags,
  };
  if (
    clean.issuer === issuer &&
    clean.account === account &&
    clean.note === display.note &&
    clean.tags === display.tags
  ) {
    return data;
  }
  return {
    ...data,
    issuer: clean.issuer.trim(),
    account: clean.account.trim(),
    display: { ...display, note: clean.note, tags: clean.tags },
  };
}

/**
 * The writes that rename tag `from` to `to` in every code that has it (trashed ones too): for each, the
 * code and its new data. A code that already has `to` keeps it once. Nothing when `to` (trimmed) is
 * empty or the same as `from`.
 */
export function renameTagIn(codes: readonly Code[], from: string, to: string): { code: Code; data: CodeData }[] {
  const target = withoutHiddenText(to).trim();
  if (target === '' || target === from) return [];
  return codes
    .filter((code) => code.display.tags.includes(from))
    .map((code) => ({
      code,
      data: {
        ...codeData(code),
        display: {
          ...code.display,
          tags: normalisedTags(code.display.tags.map((tag) => (tag === from ? target : tag))),
        },
      },
    }));
}

/** The data of a HOTP code after its "next" code was used: the counter one higher. */
export function advancedCounter(code: Code): CodeData {
  return { ...codeData(code), counter: code.counter + 1 };
}

/**
 * The code's URI without our `codeDisplay` parameter, for a QR code another device scans: what any
 * authenticator understands, without our tags, notes and usage data, and as short as it can be (a less
 * dense QR code scans more easily). The other parameters are written exactly as `codeURI` writes them.
 */
export function plainCodeURI(data: CodeData): string {
  const uri = codeURI(data);
  const query = uri.indexOf('?');
  if (query < 0) return uri;
  const params = uri
    .slice(query + 1)
    .split('&')
    .filter((param) => param !== '' && !/^codeDisplay(=|$)/.test(param));
  return params.length === 0 ? uri.slice(0, query) : `${uri.slice(0, query)}?${params.join('&')}`;
}
