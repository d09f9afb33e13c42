// Text that cannot lie about itself. Names chosen by someone else (a code's issuer, account, note and
// tags; later file and album names) may hold characters that draw nothing but change what the rest
// looks like: bidirectional controls (an issuer "\u202Emoc.elgoog" draws as "google.com"), zero-width
// characters that make two different names look the same, and text hidden in tag characters or
// variation selectors. One rule, used where such text is shown and where it is typed or imported:
//
// - hidden: every format character (Unicode category Cf: the bidi controls U+202A–202E, U+2066–2069,
//   U+200E/200F, U+061C, the zero-width U+200B–200D, U+2060–2064, U+FEFF, soft hyphen, tag characters
//   U+E0000–E007F, …), every control character but tab, line feed and carriage return, the line and
//   paragraph separators U+2028/2029, lone surrogates, and the invisible letters and marks outside Cf
//   (combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian variation selectors,
//   the variation selectors U+FE00–FE0F and U+E0100–E01EF);
// - except where such a character does the visible work it exists for: a zero-width joiner or non-joiner
//   between two letters or marks of a script that it shapes (Arabic, Syriac, Mongolian, the Indic and
//   Brahmic scripts; in Latin or Han it changes nothing), a joiner between two emoji, and one variation selector U+FE0E/FE0F right after a
//   visible character (emoji or text presentation).
//
// `visibleText` shows each hidden character as a marker ⟨U+202E⟩, so nothing is hidden and nothing is
// lost; `withoutHiddenText` removes them (what new input keeps). Shown names are also isolated from the
// text around them (`<bdi>`), so a right-to-left name cannot reorder what follows it.

/** Format characters (Cf) and lone surrogates, hidden wherever they are but for the joiners. */
const formatOrSurrogate = /[\p{Cf}\p{Cs}]/u;
/**
 * Other code points hidden wherever they are (first, last): controls but tab, line feed and carriage
 * return; line and paragraph separators; the invisible letters and marks; the variation selectors
 * that present nothing.
 */
const hiddenRanges: readonly [number, number][] = [
  [0x00, 0x08],
  [0x0b, 0x0c],
  [0x0e, 0x1f],
  [0x7f, 0x9f],
  [0x034f, 0x034f],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x2028, 0x2029],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0d],
  [0xffa0, 0xffa0],
  [0xe0100, 0xe01ef],
];
const zwnj = 0x200c;
const zwj = 0x200d;
/** The emoji and text presentation selectors, VS15 and VS16. */
const textPresentation = 0xfe0e;
const emojiPresentation = 0xfe0f;
const isSkinTone = (code: number) => code >= 0x1f3fb && code <= 0x1f3ff;
/** Letters and marks of the scripts a joiner or non-joiner shapes. */
const joiningScript = new RegExp(
  `[${[
    'Arabic',
    'Syriac',
    'Nko',
    'Mongolian',
    'Adlam',
    'Hanifi_Rohingya',
    'Devanagari',
    'Bengali',
    'Gurmukhi',
    'Gujarati',
    'Oriya',
    'Tamil',
    'Telugu',
    'Kannada',
    'Malayalam',
    'Sinhala',
    'Myanmar',
    'Khmer',
    'Tibetan',
  ]
    .map((script) => `\\p{scx=${script}}`)
    .join('')}]`,
  'u',
);
const letterOrMark = /[\p{L}\p{M}]/u;
const emoji = /\p{Extended_Pictographic}/u;

const codeOf = (char: string | undefined) => char?.codePointAt(0) ?? -1;
const isPresentation = (char: string | undefined) => {
  const code = codeOf(char);
  return code === textPresentation || code === emojiPresentation;
};

/** Code points of `text`; lone surrogates come through as themselves (unlike `for…of` on pairs). */
function codePoints(text: string): string[] {
  return Array.from(text);
}

/** Whether an emoji comes before `index`, past a skin tone modifier or an emoji presentation selector. */
function isEmojiBefore(chars: readonly string[], index: number): boolean {
  let i = index - 1;
  while (i >= 0 && (isSkinTone(codeOf(chars[i])) || codeOf(chars[i]) === emojiPresentation)) i -= 1;
  return i >= 0 && emoji.test(chars[i] ?? '');
}

function joins(chars: readonly string[], index: number): boolean {
  const before = chars[index - 1] ?? '';
  const after = chars[index + 1] ?? '';
  if (codeOf(chars[index]) === zwj && isEmojiBefore(chars, index) && emoji.test(after)) return true;
  const joinable = (char: string) => letterOrMark.test(char) && joiningScript.test(char);
  return joinable(before) && joinable(after);
}

/** Whether the code point at `index` of `chars` is hidden (see the rule above). */
function isHidden(chars: readonly string[], index: number): boolean {
  const char = chars[index] ?? '';
  const code = codeOf(char);
  if (code === zwj || code === zwnj) return !joins(chars, index);
  if (isPresentation(char)) {
    const before = chars[index - 1];
    return before === undefined || isPresentation(before) || isHidden(chars, index - 1);
  }
  return formatOrSurrogate.test(char) || hiddenRanges.some(([first, last]) => code >= first && code <= last);
}

/** The marker that stands for a hidden character: ⟨U+202E⟩. */
export function hiddenMarker(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** Printable ASCII holds no hidden character: most names take this path and no other work. */
const printableAscii = /^[\x20-\x7e]*$/;

/** Each code point of `text`, or its replacement where it is hidden; `text` itself when none is. */
function replaceHidden(text: string, replacement: (char: string) => string): string {
  if (printableAscii.test(text)) return text;
  const chars = codePoints(text);
  const kept: string[] = [];
  let changed = false;
  for (const [index, char] of chars.entries()) {
    const hidden = isHidden(chars, index);
    changed ||= hidden;
    kept.push(hidden ? replacement(char) : char);
  }
  return changed ? kept.join('') : text;
}

/** Whether `text` holds a character that draws nothing or changes how the rest is drawn. */
export function hasHiddenText(text: string): boolean {
  if (printableAscii.test(text)) return false;
  const chars = codePoints(text);
  return chars.some((_, index) => isHidden(chars, index));
}

/** `text` with every hidden character shown as its marker (⟨U+202E⟩); the rest as it is. */
export function visibleText(text: string): string {
  return replaceHidden(text, hiddenMarker);
}

/** `text` without its hidden characters: what a name typed, pasted, read from a link or imported keeps. */
export function withoutHiddenText(text: string): string {
  return replaceHidden(text, () => '');
}
