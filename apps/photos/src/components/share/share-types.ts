// What the share dialog asks the page to do, and the link settings it changes. Each action resolves once the
// library shows the change (its pull is over) and rejects with the request's error.
import type { CollectionRole } from '@ente/protocol';

import type { Album } from '../../library/types.ts';

/** The roles an album is shared with. */
export type ShareRole = Extract<CollectionRole, 'VIEWER' | 'COLLABORATOR'>;
export const shareRoles: readonly ShareRole[] = ['VIEWER', 'COLLABORATOR'];

/** A change to the album's link; `password: null` removes the password (the library's `LinkChanges`). */
export interface LinkChange {
  validTill?: number;
  deviceLimit?: number;
  enableDownload?: boolean;
  enableCollect?: boolean;
  password?: string | null;
}

export interface ShareActions {
  /** Shares with the account of `email`; with an address already shared with, changes its role. */
  share: (album: Album, email: string, role: ShareRole) => Promise<unknown>;
  unshare: (album: Album, email: string) => Promise<unknown>;
  createLink: (album: Album) => Promise<unknown>;
  updateLink: (album: Album, change: LinkChange) => Promise<unknown>;
  deleteLink: (album: Album) => Promise<unknown>;
}

/** The page's sharing actions with what the dialogs open from: leaving, and the address of an album's link. */
export interface AlbumSharingActions extends ShareActions {
  leave: (album: Album) => Promise<unknown>;
  /** The address the album's live link is shared as (the album key in its fragment); undefined without one. */
  linkURL: (album: Album) => string | undefined;
}
