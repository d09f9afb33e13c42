// Pairs a screen showing the cast page with an album (docs/protocol.md#cast): the screens paired before stop, the
// screen's public key is read by its code, and the album's id, key and a fresh cast token go to it sealed to that
// key (in the crypto worker), so that the server never sees the album key. Also what a failure says, as a key the
// dialog renders.
import { castCode } from '@ente/protocol/cast.ts';
import { ApiError, ClientError, NetworkError } from '@ente/shared/http.ts';

/** What the sender needs from the outside: the server's cast routes and the sealing (the crypto worker's). */
export interface CastSenderDeps {
  revokeAll: () => Promise<void>;
  publicKeyOf: (code: string) => Promise<string>;
  postCastData: (request: {
    deviceCode: string;
    collectionID: number;
    castToken: string;
    encPayload: string;
  }) => Promise<void>;
  /** `data` (b64) sealed to `publicKey` (b64), as b64. */
  seal: (data: string, publicKey: string) => Promise<string>;
}

/** Why a code cannot be sent or did not pair; `code_*` are said under the field, the others as the dialog's alert. */
export type CastProblem = 'code_invalid' | 'code_unknown' | 'limit' | 'rate' | 'network' | 'failed';

const tokenAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A cast token as Ente's senders make it: `cast_` and 22 random letters and digits. */
export function newCastToken(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  let token = 'cast_';
  while (token.length < 27) {
    // 248 = 4 × 62: larger bytes are dropped, so every character is equally likely.
    for (const byte of random(new Uint8Array(32))) {
      if (byte < 248 && token.length < 27) token += tokenAlphabet.charAt(byte % 62);
    }
  }
  return token;
}

/** The code as the server takes it (trimmed, upper case), or undefined when it is not six letters and digits. */
export function typedCode(typed: string): string | undefined {
  const parsed = castCode.safeParse(typed);
  return parsed.success && parsed.data.length === 6 ? parsed.data : undefined;
}

const utf8B64 = (text: string) => {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/** Pairs the screen showing `code` with the album; rejects with the request's error. */
export async function castAlbum(
  album: { id: number; key: string },
  code: string,
  deps: CastSenderDeps,
  castToken = newCastToken(),
): Promise<void> {
  await deps.revokeAll();
  const publicKey = await deps.publicKeyOf(code);
  const payload = JSON.stringify({ castToken, collectionID: album.id, collectionKey: album.key });
  const encPayload = await deps.seal(utf8B64(payload), publicKey);
  await deps.postCastData({ deviceCode: code, collectionID: album.id, castToken, encPayload });
}

/** What a failed pairing or stop says. */
export function castFailure(error: unknown): CastProblem {
  if (error instanceof NetworkError) return 'network';
  const status = error instanceof ApiError || error instanceof ClientError ? error.httpStatus : undefined;
  if (status === 404) return 'code_unknown';
  if (status === 403) return 'limit';
  if (status === 429) return 'rate';
  return 'failed';
}
