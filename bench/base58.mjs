// Base58 (Bitcoin's alphabet), as a public album link's fragment carries the album key: for the benchmarks that
// open such a link (bundle-size.mjs). Plain JavaScript, so that a script run with plain node can take it.

const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The base58 text of `bytes`: each leading zero byte is a '1'. */
export function base58(bytes) {
  let number = 0n;
  for (const byte of bytes) number = number * 256n + BigInt(byte);
  let text = '';
  while (number > 0n) {
    text = alphabet[Number(number % 58n)] + text;
    number /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}
