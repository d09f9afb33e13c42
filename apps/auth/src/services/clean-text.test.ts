import { multiLine, oneLine, wellFormed } from './clean-text.ts';

describe('clean text', () => {
  test('oneLine removes controls (C0, DEL, C1) and trims', () => {
    expect(oneLine('  Git\u0000Hub\u0007\u007f\u0085 \n')).toBe('GitHub');
  });

  test('oneLine turns lone surrogates into U+FFFD and keeps pairs', () => {
    expect(oneLine('a\uD800b\uDC00c 😀')).toBe('a\uFFFDb\uFFFDc 😀');
    expect(() => encodeURIComponent(oneLine('x\uDBFF'))).not.toThrow();
  });

  test('multiLine keeps line breaks and tabs, normalises CRLF and CR, removes other controls', () => {
    expect(multiLine(' one\r\ntwo\rthree\tfour\u0000\u009f\uD800 ')).toBe('one\ntwo\nthree\tfour\uFFFD');
  });

  test('wellFormed changes nothing but lone surrogates', () => {
    expect(wellFormed(' a\u0000\n')).toBe(' a\u0000\n');
    expect(wellFormed('\uDC00')).toBe('\uFFFD');
  });
});
