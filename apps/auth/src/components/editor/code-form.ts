// The values of the code form (what the fields show, as typed) and the rules that turn them into a
// code's data: which field is wrong and why, or the data. The data keeps whatever the form does not
// show (unknown `codeDisplay` keys, unknown URI parameters, usage counts) from the code it started from.
import { normalisedTags, withoutHiddenLabels } from '../../services/code-edits.ts';
import { emptyDisplay, maxPeriod, normalisedSecret } from '../../services/code-uri.ts';
import type { CodeData, OTPAlgorithm, OTPType } from '../../services/types.ts';
import { withoutHiddenText } from '../../services/visible-text.ts';

/** The longest note (characters, as the field counts them). */
export const noteLimit = 500;
export const minDigits = 4;
export const maxDigits = 10;
export { maxPeriod };

/** Steam codes are always 5 characters, every 30 s, with SHA-1. */
const steam = { digits: 5, period: 30, algorithm: 'sha1' } as const;

export interface CodeFormValues {
  issuer: string;
  account: string;
  secret: string;
  type: OTPType;
  algorithm: OTPAlgorithm;
  digits: string;
  period: string;
  counter: string;
  tags: string[];
  note: string;
  pinned: boolean;
}

/** The fields that can be wrong ('name' is issuer and account together). */
export type CodeFormField = 'name' | 'secret' | 'digits' | 'period' | 'counter' | 'note';

/** For each wrong field, a key of section `editor` saying what is wrong. */
export type CodeFormErrors = Partial<Record<CodeFormField, CodeFormErrorKey>>;

export type CodeFormErrorKey =
  | 'editor.error_name_missing'
  | 'editor.error_secret_missing'
  | 'editor.error_secret_invalid'
  | 'editor.error_digits'
  | 'editor.error_period'
  | 'editor.error_counter'
  | 'editor.error_note_long';

/** The fields in the order they appear (the first wrong one gets the focus). */
export const formFieldOrder: readonly CodeFormField[] = ['name', 'secret', 'digits', 'period', 'counter', 'note'];

/** A new code's data before anything is typed: TOTP, SHA-1, 6 digits, 30 s, with `initial` over it. */
export function newCodeData(initial: Partial<CodeData> = {}): CodeData {
  return {
    type: 'totp',
    issuer: '',
    account: '',
    secret: '',
    algorithm: 'sha1',
    digits: 6,
    period: 30,
    counter: 0,
    unknownParams: [],
    ...initial,
    display: { ...emptyDisplay(), ...initial.display },
  };
}

/**
 * The form's values for `data`. Issuer, account, note and tags show, and are saved, without characters
 * that draw nothing (`withoutHiddenLabels`): editing a code stored with a bidi control shows its name
 * as it really reads.
 */
export function formValues(shown: CodeData): CodeFormValues {
  const data = withoutHiddenLabels(shown);
  return {
    issuer: data.issuer,
    account: data.account,
    secret: data.secret,
    type: data.type,
    algorithm: data.algorithm,
    digits: String(data.digits),
    period: String(data.period),
    counter: String(data.counter),
    tags: [...data.display.tags],
    note: data.display.note,
    pinned: data.display.pinned,
  };
}

/** The values after the type changed: Steam fixes digits, period and algorithm; leaving Steam resets digits. */
export function withType(values: CodeFormValues, type: OTPType): CodeFormValues {
  if (type === 'steam') {
    return { ...values, type, digits: String(steam.digits), period: String(steam.period), algorithm: steam.algorithm };
  }
  return { ...values, type, digits: values.type === 'steam' ? '6' : values.digits };
}

export function formErrors(values: CodeFormValues): CodeFormErrors {
  const errors: CodeFormErrors = {};
  if (values.issuer.trim() === '' && values.account.trim() === '') errors.name = 'editor.error_name_missing';
  if (values.secret.trim() === '') errors.secret = 'editor.error_secret_missing';
  else if (normalisedSecret(values.secret) === undefined) errors.secret = 'editor.error_secret_invalid';
  if (values.type !== 'steam') {
    const digits = wholeNumber(values.digits);
    if (digits === undefined || digits < minDigits || digits > maxDigits) errors.digits = 'editor.error_digits';
  }
  if (values.type === 'totp') {
    const period = wholeNumber(values.period);
    if (period === undefined || period < 1 || period > maxPeriod) errors.period = 'editor.error_period';
  }
  if (values.type === 'hotp' && wholeNumber(values.counter) === undefined) errors.counter = 'editor.error_counter';
  if (values.note.length > noteLimit) errors.note = 'editor.error_note_long';
  return errors;
}

/**
 * The data the values describe, on top of `base` (the code being edited, or the new code's data so far),
 * or undefined when a field is wrong (see `formErrors`).
 */
export function formData(values: CodeFormValues, base: CodeData): CodeData | undefined {
  if (Object.keys(formErrors(values)).length > 0) return undefined;
  const secret = normalisedSecret(values.secret);
  if (secret === undefined) return undefined;
  const type = values.type;
  return {
    ...base,
    type,
    issuer: withoutHiddenText(values.issuer).trim(),
    account: withoutHiddenText(values.account).trim(),
    secret,
    algorithm: type === 'steam' ? steam.algorithm : values.algorithm,
    digits: type === 'steam' ? steam.digits : (wholeNumber(values.digits) ?? base.digits),
    period:
      type === 'steam' ? steam.period : type === 'totp' ? (wholeNumber(values.period) ?? base.period) : base.period,
    counter: type === 'hotp' ? (wholeNumber(values.counter) ?? 0) : base.counter,
    display: {
      ...base.display,
      tags: normalisedTags(values.tags),
      note: withoutHiddenText(values.note),
      pinned: values.pinned,
    },
  };
}

/** A whole number written with digits only (no sign, no exponent), up to 2^53 − 1. */
function wholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,16}$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : undefined;
}
