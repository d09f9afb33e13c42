// What can go wrong when opening a public album, as the page tells the person (its `public_album.error_<reason>`
// text). The server's answers behind each are in docs/protocol.md#public-links.

/**
 * - `wrongLink`: no token or key in the link, a key that does not open the album, an unknown token (401) or album (404)
 * - `disabled`: the owner turned the link off, or deleted the album (410 `disabled token`)
 * - `expired`: past the link's end date (410 `expired token`)
 * - `deviceLimit`: opened on as many devices as the owner allowed (403)
 * - `passwordRequired`: the password's token is missing or no longer valid (401: the owner changed the password)
 * - `wrongPassword`: verify-password refused the password (401)
 * - `tooManyTries`: too many password tries for now (429)
 * - `network`: no answer from the server; `server`: any other failure
 */
export type PublicAlbumErrorReason =
  | 'wrongLink'
  | 'disabled'
  | 'expired'
  | 'deviceLimit'
  | 'passwordRequired'
  | 'wrongPassword'
  | 'tooManyTries'
  | 'network'
  | 'server';

export class PublicAlbumError extends Error {
  override name = 'PublicAlbumError';
  readonly reason: PublicAlbumErrorReason;
  constructor(reason: PublicAlbumErrorReason, options?: ErrorOptions) {
    super(`the public album could not be opened (${reason})`, options);
    this.reason = reason;
  }
}
