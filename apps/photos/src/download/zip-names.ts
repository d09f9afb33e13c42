// File names inside a downloaded ZIP (or of a downloaded original), from the metadata title, which anyone who could
// upload to the album chose: so a name never carries a path (no separator, no `..`), a control, bidi or format
// character or a lone surrogate, a character or a device name Windows refuses, and it stays within what file systems
// take. Names are unique within one ZIP without regard to case (macOS and Windows file systems ignore it):
// `name (2).jpg`.

/** The longest name, in UTF-8 bytes (file systems take 255; room is left for ` (n)`). */
export const MAX_NAME_BYTES = 200;
const FALLBACK_NAME = 'file';

// Control characters, and the bidi and invisible format characters that make a name show other than it is
// (`invoice\u202Egpj.exe` shows as `invoiceexe.jpg`): marks, embeddings, overrides, isolates, the BOM.
const unsafeCharacters =
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff/\\:*?"<>|]/g;
const loneSurrogates = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const windowsDevices = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;
const encoder = new TextEncoder();

/** The name split at its last dot (a leading dot is part of the stem): ["IMG_1", ".jpg"]. */
export function splitExtension(name: string): [stem: string, extension: string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/** The longest prefix of `text` within `maxBytes` of UTF-8, never cutting a surrogate pair. */
function cutToBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    bytes += encoder.encode(character).length;
    if (bytes > maxBytes) break;
    end += character.length;
  }
  return text.slice(0, end);
}

/** A title made safe as one file name (see above); an empty or unusable title becomes `fallback`. */
export function safeFileName(title: string, fallback = FALLBACK_NAME): string {
  let name = title
    .replace(loneSurrogates, '_')
    .normalize('NFC')
    .replace(unsafeCharacters, '_')
    .replace(/\.{2,}/g, '.')
    .trim()
    // Windows drops trailing dots and spaces, which would merge names.
    .replace(/[. ]+$/, '');
  if (name === '' || name === '.') name = fallback;
  if (windowsDevices.test(name)) name = `_${name}`;
  if (encoder.encode(name).length <= MAX_NAME_BYTES) return name;
  const [stem, extension] = splitExtension(name);
  const keptExtension = encoder.encode(extension).length <= 16 ? extension : '';
  return cutToBytes(stem, MAX_NAME_BYTES - encoder.encode(keptExtension).length).trimEnd() + keptExtension;
}

/** Hands out names unique within one ZIP: the second `a.jpg` becomes `a (2).jpg`, a third `a (3).jpg`. */
export class UniqueNames {
  private readonly taken = new Set<string>();

  take(name: string): string {
    const [stem, extension] = splitExtension(name);
    let candidate = name;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
