/** @jest-environment node */
// The rule for text that draws nothing: hostile names show every hidden character as a marker, or lose it
// at input; ordinary text in any script, emoji sequences and joiners that shape a script pass unchanged.
import { hasHiddenText, hiddenMarker, visibleText, withoutHiddenText } from './visible-text.ts';

const hostile: [name: string, text: string, shown: string, kept: string][] = [
  ['RLO: "google.com" spelt backwards', '\u202Emoc.elgoog', '⟨U+202E⟩moc.elgoog', 'moc.elgoog'],
  ['LRE … PDF', 'a\u202Ab\u202C', 'a⟨U+202A⟩b⟨U+202C⟩', 'ab'],
  ['LRI … PDI', '\u2066GitHub\u2069', '⟨U+2066⟩GitHub⟨U+2069⟩', 'GitHub'],
  ['RLI and FSI', '\u2067x\u2068y', '⟨U+2067⟩x⟨U+2068⟩y', 'xy'],
  ['LRM, RLM and the Arabic letter mark', '\u200Ea\u200Fb\u061C', '⟨U+200E⟩a⟨U+200F⟩b⟨U+061C⟩', 'ab'],
  ['ZWSP inside a Latin name', 'goo\u200Bgle', 'goo⟨U+200B⟩gle', 'google'],
  ['ZWJ between Latin letters', 'pay\u200Dpal', 'pay⟨U+200D⟩pal', 'paypal'],
  ['ZWNJ between Latin letters', 'pay\u200Cpal', 'pay⟨U+200C⟩pal', 'paypal'],
  ['a trailing ZWJ', 'bank\u200D', 'bank⟨U+200D⟩', 'bank'],
  ['word joiner and invisible operators', 'a\u2060b\u2062c', 'a⟨U+2060⟩b⟨U+2062⟩c', 'abc'],
  ['BOM at the start and inside', '\uFEFFbank\uFEFF', '⟨U+FEFF⟩bank⟨U+FEFF⟩', 'bank'],
  ['soft hyphen', 'ex\u00ADample', 'ex⟨U+00AD⟩ample', 'example'],
  ['Mongolian vowel separator', 'a\u180Eb', 'a⟨U+180E⟩b', 'ab'],
  ['tag characters hiding "hi"', 'ok\u{E0068}\u{E0069}', 'ok⟨U+E0068⟩⟨U+E0069⟩', 'ok'],
  ['variation selectors hiding bytes', 'x\u{E0100}\u{E0101}\uFE01', 'x⟨U+E0100⟩⟨U+E0101⟩⟨U+FE01⟩', 'x'],
  ['a presentation selector with nothing to present', '\uFE0Fa', '⟨U+FE0F⟩a', 'a'],
  ['two presentation selectors', '\u2764\uFE0F\uFE0F', '\u2764\uFE0F⟨U+FE0F⟩', '\u2764\uFE0F'],
  ['a lone high surrogate', 'a\uD800b', 'a⟨U+D800⟩b', 'ab'],
  ['a lone low surrogate at the end', 'a\uDC00', 'a⟨U+DC00⟩', 'a'],
  ['control characters', 'a\u0000b\u001Bc\u0085', 'a⟨U+0000⟩b⟨U+001B⟩c⟨U+0085⟩', 'abc'],
  ['line and paragraph separators', 'a\u2028b\u2029', 'a⟨U+2028⟩b⟨U+2029⟩', 'ab'],
  ['Hangul fillers', '\u3164\u115F', '⟨U+3164⟩⟨U+115F⟩', ''],
  ['combining grapheme joiner', 'a\u034Fb', 'a⟨U+034F⟩b', 'ab'],
];

test.each(hostile)('%s: shown with markers, or removed', (_name, text, shown, kept) => {
  expect(hasHiddenText(text)).toBe(true);
  expect(visibleText(text)).toBe(shown);
  expect(withoutHiddenText(text)).toBe(kept);
  // What is shown holds no hidden character any more.
  expect(hasHiddenText(visibleText(text))).toBe(false);
});

const honest: [name: string, text: string][] = [
  ['plain ASCII', 'GitHub (alice@example.com)'],
  ['accents, composed and decomposed', 'Café Cafe\u0301'],
  ['Cyrillic, Greek, Han, Hangul', 'Яндекс Ελλάδα 微信 카카오'],
  ['Hebrew and Arabic, right to left', 'בנק מסד مصرف'],
  ['ZWNJ inside a Persian word', 'می\u200Cخواهم'],
  ['ZWJ after a Devanagari virama', 'क्\u200Dष'],
  ['ZWNJ between Bengali letters', 'র\u200Cয'],
  ['an emoji family (ZWJ sequence)', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'],
  ['a skin tone inside a ZWJ sequence', '\u{1F469}\u{1F3FD}\u200D\u{1F4BB}'],
  ['an emoji with its presentation selector, then a ZWJ', '\u2764\uFE0F\u200D\u{1F525}'],
  ['a heart in text presentation', '\u2764\uFE0E'],
  ['a keycap', '1\uFE0F\u20E3'],
  ['tabs and new lines (notes have lines)', 'first line\nsecond\tline\r\n'],
  ['spaces of other widths', 'a\u00A0b\u2009c\u3000d'],
  ['an empty string', ''],
];

test.each(honest)('%s: unchanged', (_name, text) => {
  expect(hasHiddenText(text)).toBe(false);
  expect(visibleText(text)).toBe(text);
  expect(withoutHiddenText(text)).toBe(text);
});

test('markers name the code point with at least four hex digits', () => {
  expect(hiddenMarker('\u200B')).toBe('⟨U+200B⟩');
  expect(hiddenMarker('\u0000')).toBe('⟨U+0000⟩');
  expect(hiddenMarker('\u{E0001}')).toBe('⟨U+E0001⟩');
});

test('a very long hostile name is handled in one pass', () => {
  expect(withoutHiddenText('x' + '\uFE0F'.repeat(100_000))).toBe('x\uFE0F');
  const long = '\u202E'.repeat(10_000) + 'x';
  expect(withoutHiddenText(long)).toBe('x');
  expect(visibleText(long)).toHaveLength('⟨U+202E⟩'.length * 10_000 + 1);
});
