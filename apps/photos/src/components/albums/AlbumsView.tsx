// The albums section, put together: the album list (covers and counts from the library's files, the order)
// and the dialogs its actions open (new album, rename, delete keeping or removing the photos). UI state only
// (the order, which dialog is open); the albums, the files and the writes come from the page.
import { useMemo, type ComponentType } from 'react';

import type { Album, GalleryFile } from '../../library/types.ts';
import type { ThumbnailProps } from '../gallery/Thumbnail.tsx';
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
}

export function AlbumsView({ albums, files, Thumbnail, onOpen, actions }: AlbumsViewProps) {
  const dialogs = useAlbumDialogs();
  const summaries = useMemo(() => albumSummaries(albums, files), [albums, files]);
  const { createAlbum, renameAlbum, deleteAlbum } = actions;
  // The list offers what the page can do, each through its dialog.
  const offered = {
    onCreate: createAlbum && (() => dialogs.open({ kind: 'create' })),
    onRename: renameAlbum && ((album: Album) => dialogs.open({ kind: 'rename', album })),
    onDelete: deleteAlbum && ((album: Album) => dialogs.open({ kind: 'delete', album })),
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
    </>
  );
}
