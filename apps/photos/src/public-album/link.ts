// A public album link as the person opened it (docs/protocol.md#public-links): the access token in the query
// (`?t=`) and the album key in the fragment, which no request carries. The key is base58, as `shareableLink`
// (../library/link-url.ts) writes it and Ente's apps do; 64 hex digits, the form of Ente's oldest links, are read
// too. Pure: the page hands in `location.href`.

const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const KEY_BYTES = 32;
/** 32 bytes are at most 44 base58 digits (64 in hex): a longer fragment is no key, and is not decoded (quadratic). */
const KEY_TEXT_MAX = 64;

/** What a link carries: the access token and the album key (base64). */
export interface PublicLinkParts {
  accessToken: string;
  collectionKey: string;
}

/** The bytes of base58 text (Bitcoin's alphabet, each leading '1' a zero byte); undefined when it is not base58. */
export function fromBase58(text: string): Uint8Array | undefined {
  const bytes: number[] = [];
  for (const char of text) {
    let carry = alphabet.indexOf(char);
    if (carry < 0) return undefined;
    for (let i = 0; i < bytes.length; i++) {
      carry += (bytes[i] ?? 0) * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  let zeros = 0;
  while (text[zeros] === '1') zeros++;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes.reverse()]);
}

function fromHex(text: string): Uint8Array | undefined {
  if (!/^(?:[0-9a-f]{2})+$/i.test(text)) return undefined;
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The token and key of a link, or undefined when either is missing or the key is not 32 bytes. */
export function parsePublicLink(href: string): PublicLinkParts | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const accessToken = url.searchParams.get('t') ?? '';
  const fragment = url.hash.slice(1);
  if (accessToken === '' || fragment === '' || fragment.length > KEY_TEXT_MAX) return undefined;
  const key = fragment.length === KEY_BYTES * 2 ? fromHex(fragment) : fromBase58(fragment);
  if (key?.length !== KEY_BYTES) return undefined;
  return { accessToken, collectionKey: toBase64(key) };
}
