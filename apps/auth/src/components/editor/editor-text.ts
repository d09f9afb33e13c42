// Words the editor's parts share: a code's name for messages, and the translated message of an error
// key that comes from elsewhere (the parser's `parse.*`, the vault's `vault.*`) with a fallback.
import type { i18n as I18n, TFunction } from 'i18next';

import type { CodeData } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';

type EditorT = TFunction<'codes'>;

/**
 * "Issuer (account)", or whichever of the two there is, or "(no name)"; characters that draw nothing
 * shown as markers (services/visible-text.ts).
 */
export function codeName(t: EditorT, data: Pick<CodeData, 'issuer' | 'account'>): string {
  const issuer = visibleText(data.issuer.trim());
  const account = visibleText(data.account.trim());
  if (issuer && account) return `${issuer} (${account})`;
  return issuer || account || t('editor.no_name');
}

/** `t` for a key known only at run time (checked with `i18n.exists` first). */
type DynamicT = (key: string, options?: Record<string, string>) => string;

/** The message of a `codes` key given at run time, or of `fallback` when the namespace lacks it. */
export function keyMessage(
  t: EditorT,
  i18n: I18n,
  key: string | undefined,
  fallback: `editor.${string}`,
  values: Record<string, string> = {},
): string {
  const chosen = key !== undefined && i18n.exists(key, { ns: 'codes' }) ? key : fallback;
  return (t as unknown as DynamicT)(chosen, values);
}

/** The message for a failure that may carry an `errorKey` of the `codes` namespace (vault errors do). */
export function failureMessage(t: EditorT, i18n: I18n, e: unknown, fallback: `editor.${string}`): string {
  const key =
    typeof e === 'object' && e !== null && 'errorKey' in e && typeof e.errorKey === 'string' ? e.errorKey : undefined;
  return keyMessage(t, i18n, key, fallback);
}
