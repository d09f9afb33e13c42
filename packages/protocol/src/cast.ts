// Cast (docs/protocol.md#cast): a screen without an account pairs with a photos client by a short code, and then
// reads one album with a cast token. Museum's shapes. The album key travels only inside `encPayload`, a sealed
// box to the screen's public key that the server stores and hands back without opening.
import * as z from 'zod/mini';

import { b64, decodedLength, microsParam, uuid } from './common.ts';
import { collectionSchema, photoFileSchema, photoID } from './photos.ts';

export const castLimits = {
  /** Characters of a pairing code: the first from `codeLetters`, the others from `codeSymbols`. */
  codeLength: 6,
  /** How long a code waits for a sender, from its registration (the server may be set shorter: CAST_CODE_SECONDS). */
  codeMinutes: 60,
  /** A paired screen's token dies after this long without a request. */
  tokenIdleDays: 7,
  /** Live paired screens per account. */
  maxDevices: 50,
  /** Wrong codes per account and hour at GET /cast/device-info/:code (from every address together). */
  codeMissesPerAccountHour: 20,
  /** Characters of a cast token (Ente's senders make 27: `cast_` and 22 of [0-9A-Za-z]). */
  minTokenLength: 20,
  maxTokenLength: 128,
  /** A sealed box is 48 bytes longer than its plaintext; the payload is a few hundred bytes of JSON. */
  maxPayloadB64: 4096,
} as const;

/** Museum's code alphabet: letters without O, then letters without O and digits without 0. */
export const castCodeLetters = 'ABCDEFGHIJKLMNPQRSTUVWXYZ';
export const castCodeSymbols = `${castCodeLetters}123456789`;

/** The `{error}` text when a cast route gets no cast token (an unknown one is `invalid token`). */
export const castErrorTexts = { missingCastToken: 'cast access token missing' } as const;

/** A code as typed: case and surrounding spaces do not matter (museum upper-cases it). */
export const castCode = z.pipe(
  z.pipe(
    z.string().check(z.maxLength(64)),
    z.transform((value: string) => value.trim().toUpperCase()),
  ),
  z.string().check(z.regex(/^[A-Z0-9]{1,16}$/, 'must be letters and digits')),
);

/** POST /cast/device-info: the screen's X25519 public key. */
export const registerCastDeviceRequestSchema = z.object({ publicKey: b64(32) });
export type RegisterCastDeviceRequest = z.infer<typeof registerCastDeviceRequestSchema>;
export const registerCastDeviceResponseSchema = z.object({ deviceCode: z.string() });
export type RegisterCastDeviceResponse = z.infer<typeof registerCastDeviceResponseSchema>;

/** GET /cast/device-info/:deviceCode and GET /cast/cast-data/:deviceCode. */
export const castCodePathSchema = z.object({ deviceCode: castCode });

/** GET /cast/device-info/:deviceCode (the sender): the screen's public key. */
export const castPublicKeyResponseSchema = z.object({ publicKey: z.string() });
export type CastPublicKeyResponse = z.infer<typeof castPublicKeyResponseSchema>;

/**
 * POST /cast/cast-data (the sender): `encPayload` is b64 of `crypto_box_seal(JSON of castPayloadSchema, publicKey)`;
 * `castToken` is the one inside it.
 */
export const castDataRequestSchema = z.object({
  deviceCode: castCode,
  collectionID: photoID,
  castToken: z
    .string()
    .check(
      z.minLength(castLimits.minTokenLength),
      z.maxLength(castLimits.maxTokenLength),
      z.regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, _ and -'),
    ),
  encPayload: b64(undefined, { max: castLimits.maxPayloadB64 }).check(
    z.refine<string>((value) => decodedLength(value) > 48, 'must be a sealed box'),
  ),
});
export type CastDataRequest = z.infer<typeof castDataRequestSchema>;

/** GET /cast/cast-data/:deviceCode (the screen): null until a sender pairs. */
export const castDataResponseSchema = z.object({ encCastData: z.nullable(z.string()) });
export type CastDataResponse = z.infer<typeof castDataResponseSchema>;

/** What the sealed box holds (UTF-8 JSON): the screen checks it after opening. */
export const castPayloadSchema = z.object({
  castToken: z.string(),
  collectionID: z.number(),
  collectionKey: b64(32),
});
export type CastPayload = z.infer<typeof castPayloadSchema>;

/** DELETE /cast/device-info/:deviceID. */
export const castDeviceIDPathSchema = z.object({ deviceID: uuid });

/** GET /cast/device-info: the caller's paired screens. */
export const castDevicesResponseSchema = z.object({
  devices: z.array(
    z.object({ deviceID: z.string(), collectionID: z.number(), deviceIP: z.string(), lastUsedAt: z.number() }),
  ),
});
export type CastDevicesResponse = z.infer<typeof castDevicesResponseSchema>;

/** GET /cast/diff?sinceTime= (cast token): absent means 0. */
export const castDiffQuerySchema = z.object({ sinceTime: z._default(microsParam, 0) });
export const castDiffResponseSchema = z.object({ diff: z.array(photoFileSchema), hasMore: z.boolean() });
export type CastDiffResponse = z.infer<typeof castDiffResponseSchema>;

/** GET /cast/info (cast token). */
export const castInfoResponseSchema = z.object({ collection: collectionSchema });
export type CastInfoResponse = z.infer<typeof castInfoResponseSchema>;
