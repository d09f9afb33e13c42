// What went wrong when sharing an album or changing its link, as the dialog says it: a problem with the address
// typed (checked before anything is sent, or the server's answer for an address without an account), or one of
// the request (no connection, too many tries, anything else). Pure: the dialog renders the key it returns.
import { emailAddressProblem } from '@ente/protocol/email-address.ts';
import { ApiError, ClientError, NetworkError } from '@ente/shared/http.ts';

import type { AlbumMember } from '../../library/types.ts';

/** A problem with the address typed; shown under the field. */
export type AddressProblem = 'invalid' | 'self' | 'already' | 'unknown';
/** A problem of the request; shown as the section's alert. */
export type RequestProblem = 'network' | 'rate' | 'failed';

/** The address as the form sends it: trimmed and lower-cased, as the server stores accounts' addresses. */
export const normalizedAddress = (typed: string) => typed.trim().toLowerCase();

/**
 * Why `email` (normalized) cannot be shared with, found before asking the server: not an address an account can
 * have (the sign-up's rule), the owner's own, or one the album is shared with already.
 */
export function addressProblem(
  email: string,
  album: { owner: AlbumMember; sharees: readonly AlbumMember[] },
): AddressProblem | undefined {
  if (emailAddressProblem(email) !== undefined) return 'invalid';
  const same = (member: AlbumMember) => member.email.toLowerCase() === email.toLowerCase();
  if (same(album.owner)) return 'self';
  if (album.sharees.some(same)) return 'already';
  return undefined;
}

const statusOf = (error: unknown) =>
  error instanceof ApiError || error instanceof ClientError ? error.httpStatus : undefined;

/**
 * What a failed share says. `GET /users/public-key` (the first request of a share) answers 404 for an address
 * without an account; the server refuses the owner's own address with 400, which the form catches before.
 */
export function shareFailure(error: unknown): 'unknown' | RequestProblem {
  if (error instanceof ApiError && error.httpStatus === 404 && error.errCode === 'NOT_FOUND') return 'unknown';
  return requestFailure(error);
}

/** What a failed request of the dialog (unshare, the link's changes) says. */
export function requestFailure(error: unknown): RequestProblem {
  if (error instanceof NetworkError) return 'network';
  if (statusOf(error) === 429) return 'rate';
  return 'failed';
}
