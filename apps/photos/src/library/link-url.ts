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

/** The link to share: `url` with `#<base58 of the collection key>` (the key as base64). */
export function shareableLink(url: string, collectionKey: string): string {
  const bytes = Uint8Array.from(atob(collectionKey), (c) => c.charCodeAt(0));
  return `${url.split('#')[0] ?? url}#${base58(bytes)}`;
}
