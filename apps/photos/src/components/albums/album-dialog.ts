// The album dialogs of a library page as one state: at most one is open, opening one replaces the other, and a
// close names the dialog it closes, so that a late close (an exit animation, an action ending) never shuts a
// dialog opened since (the auth codes page's pattern: apps/auth/src/components/codes-page/page-dialog.ts).
import type { Album } from '../../library/types.ts';

/** What the chosen album is for: adding the files to it, or moving them there from `from`. */
export type PickPurpose = { kind: 'add' } | { kind: 'move'; from: Album };

export type AlbumDialog =
  /** A new album; with `then`, the files go into it once made (the picker's "New album…"). */
  | { kind: 'create'; then?: { purpose: PickPurpose; fileIDs: readonly number[] } }
  | { kind: 'rename'; album: Album }
  | { kind: 'delete'; album: Album }
  | { kind: 'pick'; purpose: PickPurpose; fileIDs: readonly number[] }
  | { kind: 'trash'; fileIDs: readonly number[] };

export type AlbumDialogKind = AlbumDialog['kind'];

export type AlbumDialogAction = { type: 'open'; dialog: AlbumDialog } | { type: 'close'; kind: AlbumDialogKind };

export function albumDialogReducer(state: AlbumDialog | undefined, action: AlbumDialogAction): AlbumDialog | undefined {
  if (action.type === 'open') return action.dialog;
  return state?.kind === action.kind ? undefined : state;
}
