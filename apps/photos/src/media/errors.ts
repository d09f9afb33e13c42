// The failures of fetching a thumbnail or an original, besides DecryptionError (@ente/crypto/errors.ts) when
// what arrived does not open with the file's key.

/**
 * `tooLarge`: more bytes than the app reads whole (a thumbnail, a viewer's original), so refused. `held`: a thumbnail
 * asked for while fetches are held (scroll-pace.ts) and not in the `thumbs` cache; ask again once they resume.
 */
export type MediaErrorReason = 'network' | 'notFound' | 'server' | 'tooLarge' | 'held';

export class MediaError extends Error {
  override name = 'MediaError';
  readonly reason: MediaErrorReason;
  constructor(reason: MediaErrorReason, message?: string) {
    super(message ?? `media could not be fetched (${reason})`);
    this.reason = reason;
  }
}

const reasons: readonly string[] = ['network', 'notFound', 'server', 'tooLarge', 'held'] satisfies MediaErrorReason[];

/** A MediaError from its plain data across the worker boundary, or undefined for another error. */
export function rebuildMediaError({ name, message, reason }: { name: string; message: string; reason?: string }) {
  return name === 'MediaError' && reason && reasons.includes(reason)
    ? new MediaError(reason as MediaErrorReason, message)
    : undefined;
}
