// The failures of fetching a thumbnail or an original, besides DecryptionError (@ente/crypto/errors.ts) when
// what arrived does not open with the file's key.

/** `tooLarge`: more bytes than the app reads whole (a thumbnail, a viewer's original), so refused. */
export type MediaErrorReason = 'network' | 'notFound' | 'server' | 'tooLarge';

export class MediaError extends Error {
  override name = 'MediaError';
  readonly reason: MediaErrorReason;
  constructor(reason: MediaErrorReason, message?: string) {
    super(message ?? `media could not be fetched (${reason})`);
    this.reason = reason;
  }
}

const reasons: readonly string[] = ['network', 'notFound', 'server', 'tooLarge'] satisfies MediaErrorReason[];

/** A MediaError from its plain data across the worker boundary, or undefined for another error. */
export function rebuildMediaError({ name, message, reason }: { name: string; message: string; reason?: string }) {
  return name === 'MediaError' && reason && reasons.includes(reason)
    ? new MediaError(reason as MediaErrorReason, message)
    : undefined;
}
