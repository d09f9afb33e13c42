// "Play on a screen" through the server's cast routes (services/api.ts) and the crypto worker, which seals the
// payload to the screen's key: the page hands these to the cast dialog (components/cast).
import { cryptoWorker } from '@ente/crypto/client.ts';
import { buildCastAppOrigin } from '@ente/shared/config.ts';

import { castAlbum, type CastSenderDeps } from '../components/cast/cast-sender.ts';
import type { CastActions } from '../components/cast/CastDialog.tsx';
import type { Album } from '../library/types.ts';
import * as api from '../services/api.ts';

/** Where a screen opens the cast page. */
export const castPageURL = `${buildCastAppOrigin}/`;

const senderDeps: CastSenderDeps = {
  revokeAll: () => api.revokeCastTokens(),
  publicKeyOf: (code) => api.getCastPublicKey(code),
  postCastData: (request) => api.postCastData(request),
  // sealCollectionKey seals any b64 bytes (a sealed box to the key), here the payload's JSON.
  seal: async (data, publicKey) => (await cryptoWorker()).sealCollectionKey(data, publicKey),
};

export function castActions(album: Album): CastActions {
  return {
    cast: (code) => castAlbum(album, code, senderDeps),
    stop: () => api.revokeCastTokens(),
  };
}
