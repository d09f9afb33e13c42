// The library's own failures: a LibraryError carries the `photos` translation key (section `library`) of its
// message. Failures of a request are the HTTP client's errors as they are (`useDialog().onGenericError`
// explains them); the library does not wrap them.
import { Failure } from '@ente/shared/failure.ts';

export type LibraryErrorKey =
  /** No signed-in user in this browser. */
  | 'notSignedIn'
  /** This tab does not hold the masterKey (sign in again). */
  | 'locked'
  /** The album is not (or no longer) in the library. */
  | 'albumNotFound'
  /** The change needs an album of the user's own that holds the file (trash), or the album's owner. */
  | 'notOwner'
  /** The library was closed (logout, lock) before the change was done. */
  | 'closed';

export class LibraryError extends Failure<`photos:library.${LibraryErrorKey}`> {
  constructor(
    readonly reason: LibraryErrorKey,
    options?: { cause?: unknown },
  ) {
    super(`photos:library.${reason}`, options);
    this.name = 'LibraryError';
  }
}
