// The one rule for text that another app wrote (an import file's names, notes and tags, an otpauth label):
// every parser cleans it here, so the same text imports the same way whatever the format. Lone surrogates
// (a percent-decoded label or a JSON `\ud800` may hold one) become U+FFFD, so that the text can always be
// encoded again (encodeURIComponent throws on them); C0 and C1 controls and DEL never belong in a name,
// while a note keeps its line breaks and tabs.

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const controlsButBreaks = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Lone surrogates become U+FFFD; nothing else changes. */
export function wellFormed(text: string): string {
  return text.replace(loneSurrogates, '\uFFFD');
}

/** One line of text (a name, a tag): well-formed, no controls, trimmed. */
export function oneLine(text: string): string {
  return wellFormed(text).replace(controls, '').trim();
}

/** Text of several lines (a note): well-formed, CRLF and CR as LF, no controls but line breaks and tabs, trimmed. */
export function multiLine(text: string): string {
  return wellFormed(text).replace(/\r\n?/g, '\n').replace(controlsButBreaks, '').trim();
}
