// The album dialog state of a view (album-dialog.ts) as a hook: what AlbumDialogs needs to show it, and `open`.
import { useReducer } from 'react';

import { albumDialogReducer, type AlbumDialog, type AlbumDialogKind } from './album-dialog.ts';

export function useAlbumDialogs() {
  const [dialog, dispatch] = useReducer(albumDialogReducer, undefined);
  const open = (next: AlbumDialog) => dispatch({ type: 'open', dialog: next });
  const onClose = (kind: AlbumDialogKind) => dispatch({ type: 'close', kind });
  return { open, dialogProps: { dialog, onClose, onOpen: open } };
}
