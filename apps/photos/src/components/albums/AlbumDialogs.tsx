// The album dialogs of a library page (album-dialog.ts says which is open), each one's code fetched the first
// time it opens, so none of it is in the page's first load. The dialog last shown stays mounted while it closes
// (its exit, focus back to what opened it); each opening starts afresh (a new name field, no old failure).
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Album } from '../../library/types.ts';
import type { AlbumDialog, AlbumDialogKind, PickPurpose } from './album-dialog.ts';

const AlbumNameDialog = lazy(() => import('./AlbumNameDialog.tsx').then((m) => ({ default: m.AlbumNameDialog })));
const DeleteAlbumDialog = lazy(() => import('./DeleteAlbumDialog.tsx').then((m) => ({ default: m.DeleteAlbumDialog })));
const PickAlbumDialog = lazy(() => import('./PickAlbumDialog.tsx').then((m) => ({ default: m.PickAlbumDialog })));
const ConfirmDialog = lazy(() => import('../ConfirmDialog.tsx').then((m) => ({ default: m.ConfirmDialog })));

export interface AlbumDialogsProps {
  dialog: AlbumDialog | undefined;
  onClose: (kind: AlbumDialogKind) => void;
  /** Opens another dialog (the picker's "New album…" opens the create dialog). */
  onOpen: (dialog: AlbumDialog) => void;
  /** The albums files can be added to (the person's own and those they collaborate on). */
  albums: readonly Album[];
  /**
   * Each action resolves once done (the dialog then closes) or rejects (it stays, saying it failed). Without
   * `onCreate` the picker offers no "New album…".
   */
  onCreate?: (name: string) => Promise<Album>;
  /** Without them (a view that neither renames nor deletes albums) those dialogs never show. */
  onRename?: (album: Album, name: string) => Promise<unknown>;
  onDelete?: (album: Album, keepFiles: boolean) => Promise<unknown>;
  /** The files' actions; a view that opens no picker or trash confirmation (the album list) gives none. */
  onAdd?: (album: Album, fileIDs: readonly number[]) => Promise<unknown>;
  onMove?: (from: Album, to: Album, fileIDs: readonly number[]) => Promise<unknown>;
  onTrash?: (fileIDs: readonly number[]) => Promise<unknown>;
}

export function AlbumDialogs(props: AlbumDialogsProps) {
  const { dialog, onClose, onOpen, albums } = props;
  const { t } = useTranslation('photos');
  const [shown, setShown] = useState<{ dialog: AlbumDialog; key: number }>();
  // A newly opened dialog replaces the one shown (React's "adjust state when a prop changes").
  if (dialog !== undefined && dialog !== shown?.dialog) setShown({ dialog, key: (shown?.key ?? 0) + 1 });
  const current = dialog !== undefined && dialog !== shown?.dialog ? dialog : shown?.dialog;
  if (!current) return null;
  const open = dialog === current;
  const key = shown?.key ?? 0;
  const close = () => onClose(current.kind);

  const fileAction = async (purpose: PickPurpose, fileIDs: readonly number[], album: Album) => {
    await (purpose.kind === 'add' ? props.onAdd?.(album, fileIDs) : props.onMove?.(purpose.from, album, fileIDs));
  };

  let content;
  switch (current.kind) {
    case 'create': {
      const { onCreate } = props;
      if (!onCreate) break;
      const then = current.then;
      content = (
        <AlbumNameDialog
          key={key}
          open={open}
          mode="create"
          onClose={close}
          onSubmit={async (name) => {
            const album = await onCreate(name);
            if (then) await fileAction(then.purpose, then.fileIDs, album);
          }}
        />
      );
      break;
    }
    case 'rename': {
      const { onRename } = props;
      if (!onRename) break;
      content = (
        <AlbumNameDialog
          key={key}
          open={open}
          mode="rename"
          initialName={current.album.name}
          onClose={close}
          onSubmit={(name) => onRename(current.album, name)}
        />
      );
      break;
    }
    case 'delete':
      if (!props.onDelete) break;
      content = (
        <DeleteAlbumDialog key={key} open={open} album={current.album} onClose={close} onDelete={props.onDelete} />
      );
      break;
    case 'pick': {
      const { purpose, fileIDs } = current;
      const from = purpose.kind === 'move' ? purpose.from.id : undefined;
      content = (
        <PickAlbumDialog
          key={key}
          open={open}
          purpose={purpose.kind}
          albums={albums.filter((album) => album.id !== from)}
          onClose={close}
          onPick={(album) => fileAction(purpose, fileIDs, album)}
          onNew={props.onCreate ? () => onOpen({ kind: 'create', then: { purpose, fileIDs } }) : undefined}
        />
      );
      break;
    }
    case 'trash': {
      const { fileIDs } = current;
      content = (
        <ConfirmDialog
          key={key}
          open={open}
          title={t('dialogs.trash_title')}
          description={t('dialogs.trash_body', { count: fileIDs.length })}
          confirmLabel={t('dialogs.trash_confirm')}
          onClose={close}
          onConfirm={async () => props.onTrash?.(fileIDs)}
        />
      );
      break;
    }
  }
  return <Suspense fallback={null}>{content}</Suspense>;
}
