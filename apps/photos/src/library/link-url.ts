// The address a public link is shared as: the server's URL with the collection key in the fragment, in
// base58 (docs/protocol.md#photos-client-encryption). A fragment never reaches a server.

const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin's alphabet) of bytes: each leading zero byte is a '1'. */
export function base58(bytes: Uint8Array): string {
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += (digits[i] ?? 0) << 8;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let zeros = '';
  for (const byte of bytes) {
    if (byte !== 0) break;
    zeros += '1';
  }
  return (
    zeros +
    digits
      .reverse()
      .map((digit) => alphabet[digit] ?? '')
      .join('')
  );
}

/** Hosts a link may be plain http on: this machine (a local stack). */
const localHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether the server's link URL may carry the album key: https: (http: only on this machine), no credentials.
 * The server chooses the URL, so one of another scheme or a plain-http host would hand the key (in the fragment)
 * to whatever answers there.
 */
export function isShareableURL(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== '' || parsed.password !== '') return false;
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && localHosts.has(parsed.hostname));
}

/**
 * The link to share: `url` with `#<base58 of the collection key>` (the key as base64); undefined when the server's
 * `url` is not one to share (isShareableURL), so that no address is offered.
 */
export function shareableLink(url: string, collectionKey: string): string | undefined {
  if (!isShareableURL(url)) return undefined;
  const bytes = Uint8Array.from(atob(collectionKey), (c) => c.charCodeAt(0));
  return `${url.split('#')[0] ?? url}#${base58(bytes)}`;
}
