// The albums section, put together: the album list (covers and counts from the library's files, the order)
// and the dialogs its actions open (new album, rename, delete keeping or removing the photos; share an album of
// one's own, leave one shared with one: ../share/). UI state only (the order, which dialog is open); the albums,
// the files and the writes come from the page.
import { useMemo, useState, type ComponentType } from 'react';

import type { Album, GalleryFile } from '../../library/types.ts';
import type { ThumbnailProps } from '../gallery/Thumbnail.tsx';
import { AlbumSharing, type SharingDialog } from '../share/AlbumSharing.tsx';
import type { AlbumSharingActions } from '../share/share-types.ts';
import { albumSummaries } from './album-summaries.ts';
import { AlbumDialogs } from './AlbumDialogs.tsx';
import { AlbumList } from './AlbumList.tsx';
import { useAlbumDialogs } from './use-album-dialogs.ts';

/** The page's writes on albums; each resolves once done. An action not given is not offered. */
export interface AlbumsViewActions {
  createAlbum?: (name: string) => Promise<Album>;
  renameAlbum?: (album: Album, name: string) => Promise<unknown>;
  deleteAlbum?: (album: Album, keepFiles: boolean) => Promise<unknown>;
}

export interface AlbumsViewProps {
  albums: readonly Album[];
  /** The library's files, for each album's count and cover. */
  files: readonly GalleryFile[];
  Thumbnail?: ComponentType<ThumbnailProps>;
  onOpen: (album: Album) => void;
  actions: AlbumsViewActions;
  /** Offers sharing the albums the person owns and leaving those shared with them, when given. */
  sharing?: AlbumSharingActions;
  /** Offers "Play on a screen" on every album, when given. */
  onCast?: (album: Album) => void;
}

export function AlbumsView({ albums, files, Thumbnail, onOpen, actions, sharing, onCast }: AlbumsViewProps) {
  const dialogs = useAlbumDialogs();
  const [sharingDialog, setSharingDialog] = useState<SharingDialog>();
  const summaries = useMemo(() => albumSummaries(albums, files), [albums, files]);
  const { createAlbum, renameAlbum, deleteAlbum } = actions;
  // The list offers what the page can do, each through its dialog.
  const offered = {
    onCreate: createAlbum && (() => dialogs.open({ kind: 'create' })),
    onRename: renameAlbum && ((album: Album) => dialogs.open({ kind: 'rename', album })),
    onDelete: deleteAlbum && ((album: Album) => dialogs.open({ kind: 'delete', album })),
    onShare: sharing && ((album: Album) => setSharingDialog({ kind: 'share', albumID: album.id })),
    onLeave: sharing && ((album: Album) => setSharingDialog({ kind: 'leave', albumID: album.id })),
    onCast,
  };
  return (
    <>
      <AlbumList albums={summaries} Thumbnail={Thumbnail} onOpen={onOpen} {...offered} />
      <AlbumDialogs
        {...dialogs.dialogProps}
        albums={albums}
        onCreate={createAlbum}
        onRename={renameAlbum}
        onDelete={deleteAlbum}
      />
      {sharing && (
        <AlbumSharing
          dialog={sharingDialog}
          albums={albums}
          actions={sharing}
          onClose={() => setSharingDialog(undefined)}
        />
      )}
    </>
  );
}
