// A library view of files, put together: the grid by day, the selection and its bar, the album dialogs the
// bar's actions open (add to or move to an album, with "New album…"; confirm trash), and the viewer over the
// grid (its code fetched when first opened). It holds only UI state (what is selected, which dialog is open,
// which file the viewer shows); the files, the albums and every write come from the page (the library, the
// media loader) as props. The photos of the library, an album's photos and a shared album all use it.
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import type { Album, GalleryFile } from '../library/types.ts';
import { useAlbumDialogs } from './albums/use-album-dialogs.ts';
import { EmptyState } from './EmptyState.tsx';
import { GalleryGrid } from './gallery/GalleryGrid.tsx';
import type { ThumbnailProps } from './gallery/Thumbnail.tsx';
import { SelectionBar } from './selection/SelectionBar.tsx';
import { useViewSelection } from './selection/use-view-selection.ts';
import { useFailureNotice } from './use-failure-notice.tsx';
import { LazyViewer } from './viewer/LazyViewer.tsx';
import { useViewerFile, type UseViewerMedia } from './viewer/use-viewer-file.ts';

export type { UseViewerMedia, ViewerMedia } from './viewer/use-viewer-file.ts';

/**
 * The album dialogs, fetched the first time one opens (each dialog's own code comes after): a view whose actions open
 * none (a public album's) never loads them.
 */
const AlbumDialogs = lazy(() => import('./albums/AlbumDialogs.tsx').then((m) => ({ default: m.AlbumDialogs })));

/** The page's writes; each resolves once done. An action not given is not offered. */
export interface PhotosViewActions {
  createAlbum?: (name: string) => Promise<Album>;
  addToAlbum?: (album: Album, fileIDs: readonly number[]) => Promise<unknown>;
  /** Moving out of the album shown (`album`); offered only in an album's view. */
  moveToAlbum?: (from: Album, to: Album, fileIDs: readonly number[]) => Promise<unknown>;
  /** Out of the album shown (`album`), staying in the library; offered only in an album's view. */
  removeFromAlbum?: (from: Album, fileIDs: readonly number[]) => Promise<unknown>;
  trash?: (fileIDs: readonly number[]) => Promise<unknown>;
  download?: (fileIDs: readonly number[]) => void;
  /** A slideshow of the selected files. */
  slideshow?: (fileIDs: readonly number[]) => void;
}

export interface PhotosViewProps {
  files: readonly GalleryFile[];
  /** The album shown, if this is an album's view (files move out of it). */
  album?: Album;
  /** The albums files can be added or moved to (the person's own and those they collaborate on). */
  albums: readonly Album[];
  /** The grid's thumbnails (see `thumbnailFromHook`); placeholders unless given. */
  Thumbnail?: ComponentType<ThumbnailProps>;
  /** The media loader's hook for the file the viewer shows. */
  useViewerMedia: UseViewerMedia;
  actions: PhotosViewActions;
  /** The grid's accessible name (an album's name, say); "Photos by day" unless given. */
  label?: string;
}

export function PhotosView(props: PhotosViewProps) {
  const { files, album, albums, Thumbnail, useViewerMedia, actions, label } = props;
  const { t } = useTranslation('photos');
  const { clear, ids: selectedIDs, gridProps, barProps } = useViewSelection(files);
  const dialogs = useAlbumDialogs();
  // Mounted from the first dialog on, so that the last one shown can close as before.
  const [dialogsUsed, setDialogsUsed] = useState(false);
  if (dialogs.dialogProps.dialog !== undefined && !dialogsUsed) setDialogsUsed(true);
  const viewer = useViewerFile(files, useViewerMedia);
  const failures = useFailureNotice();

  const { createAlbum, addToAlbum, moveToAlbum, removeFromAlbum, trash, download, slideshow } = actions;
  const canPick = createAlbum !== undefined || albums.length > 0;

  if (files.length === 0) return <EmptyState title={t('grid.empty_title')} body={t('grid.empty_body')} />;

  return (
    <>
      <GalleryGrid files={files} label={label} Thumbnail={Thumbnail} onOpen={viewer.onOpen} {...gridProps} />
      <SelectionBar
        {...barProps}
        onAddToAlbum={
          addToAlbum && canPick
            ? () => dialogs.open({ kind: 'pick', purpose: { kind: 'add' }, fileIDs: selectedIDs })
            : undefined
        }
        onMoveToAlbum={
          moveToAlbum && album && canPick
            ? () => dialogs.open({ kind: 'pick', purpose: { kind: 'move', from: album }, fileIDs: selectedIDs })
            : undefined
        }
        // Removed files leave this view by themselves; a failure is said (the page logs it).
        onRemoveFromAlbum={
          removeFromAlbum && album
            ? () => failures.run(() => removeFromAlbum(album, selectedIDs), t('selection.remove_failed'))
            : undefined
        }
        onDownload={download ? () => download(selectedIDs) : undefined}
        onSlideshow={slideshow ? () => slideshow(selectedIDs) : undefined}
        onTrash={trash ? () => dialogs.open({ kind: 'trash', fileIDs: selectedIDs }) : undefined}
      />
      {dialogsUsed && (
        <Suspense fallback={null}>
          <AlbumDialogs
            {...dialogs.dialogProps}
            albums={albums}
            onCreate={createAlbum}
            // Added files stay in this view: the selection is done with. Moved and trashed ones leave it by themselves.
            onAdd={async (to, ids) => {
              await addToAlbum?.(to, ids);
              clear();
            }}
            onMove={async (from, to, ids) => moveToAlbum?.(from, to, ids)}
            onTrash={async (ids) => trash?.(ids)}
          />
        </Suspense>
      )}
      <LazyViewer
        {...viewer.viewerProps}
        onTrash={trash ? (file) => dialogs.open({ kind: 'trash', fileIDs: [file.id] }) : undefined}
      />
      {failures.element}
    </>
  );
}
