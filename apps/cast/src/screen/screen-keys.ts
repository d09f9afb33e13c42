// The screen's key pair. Made with WebCrypto's X25519 where the browser has it, so that showing a code loads no
// libsodium (the crypto worker starts only once a payload comes, to open it); elsewhere in the crypto worker,
// where the secret key stays under a handle. Either way it lives in memory only, for the page's life.
import { cryptoWorker } from '@ente/crypto/client.ts';

export type ScreenKeys = {
  /** b64 of the 32-byte X25519 public key (`POST /cast/device-info`). */
  publicKey: string;
  /** The UTF-8 text of a payload sealed to this pair (opened in the crypto worker). */
  open: (encCastData: string) => Promise<string>;
};

function b64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

async function webCryptoKeys(): Promise<ScreenKeys> {
  const pair = await crypto.subtle.generateKey({ name: 'X25519' }, true, ['deriveBits']);
  const publicKey = b64(new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey)));
  // PKCS #8 of an X25519 key (RFC 8410) ends with its 32 raw bytes: libsodium's crypto_box secret key.
  const secretKey = b64(new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey)).slice(-32));
  return {
    publicKey,
    open: async (encCastData) => (await cryptoWorker()).openCastPayload({ publicKey, secretKey }, encCastData),
  };
}

export async function makeScreenKeys(): Promise<ScreenKeys> {
  try {
    return await webCryptoKeys();
  } catch {
    const worker = await cryptoWorker();
    const { handle, publicKey } = await worker.castKeyPair();
    return { publicKey, open: (encCastData) => worker.openCastPayload(handle, encCastData) };
  }
}
