// A library view of files, put together: the grid by day, the selection and its bar, the album dialogs the
// bar's actions open (add to or move to an album, with "New album…"; confirm trash), and the viewer over the
// grid (its code fetched when first opened). It holds only UI state (what is selected, which dialog is open,
// which file the viewer shows); the files, the albums and every write come from the page (the library, the
// media loader) as props. The photos of the library, an album's photos and a shared album all use it.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo, useReducer, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import type { Album, GalleryFile } from '../library/types.ts';
import { albumDialogReducer } from './albums/album-dialog.ts';
import { AlbumDialogs } from './albums/AlbumDialogs.tsx';
import { GalleryGrid } from './gallery/GalleryGrid.tsx';
import { groupByDay } from './gallery/grid-model.ts';
import type { ThumbnailProps } from './gallery/Thumbnail.tsx';
import { emptySelection, prune, type Selection } from './selection/selection-model.ts';
import { SelectionBar } from './selection/SelectionBar.tsx';
import { LazyViewer } from './viewer/LazyViewer.tsx';
import type { FileDetails } from './viewer/viewer-model.ts';
import type { ViewerSource } from './viewer/Viewer.tsx';

/** The page's writes; each resolves once done. An action not given is not offered. */
export interface PhotosViewActions {
  createAlbum?: (name: string) => Promise<Album>;
  addToAlbum?: (album: Album, fileIDs: readonly number[]) => Promise<unknown>;
  /** Moving out of the album shown (`album`); offered only in an album's view. */
  moveToAlbum?: (from: Album, to: Album, fileIDs: readonly number[]) => Promise<unknown>;
  trash?: (fileIDs: readonly number[]) => Promise<unknown>;
  download?: (fileIDs: readonly number[]) => void;
}

/** What the viewer shows of a file: the media loader's hook (`undefined` while the viewer is closed). */
export interface ViewerMedia {
  source: ViewerSource;
  previewUrl?: string;
  details?: FileDetails;
}

export interface PhotosViewProps {
  files: readonly GalleryFile[];
  /** The album shown, if this is an album's view (files move out of it). */
  album?: Album;
  /** The albums files can be added or moved to (the person's own and those they collaborate on). */
  albums: readonly Album[];
  /** The grid's thumbnails (see `thumbnailFromHook`); placeholders unless given. */
  Thumbnail?: ComponentType<ThumbnailProps>;
  /** The media loader's hook for the file the viewer shows; called on every render, with undefined when closed. */
  useViewerMedia: (file: GalleryFile | undefined) => ViewerMedia;
  actions: PhotosViewActions;
  /** The grid's accessible name (an album's name, say); "Photos by day" unless given. */
  label?: string;
}

export function PhotosView(props: PhotosViewProps) {
  const { files, album, albums, Thumbnail, useViewerMedia, actions, label } = props;
  const { t } = useTranslation('photos');
  const [selectionState, setSelection] = useState<Selection>(emptySelection);
  const [dialog, dispatchDialog] = useReducer(albumDialogReducer, undefined);
  const [viewing, setViewing] = useState<{ id: number; index: number }>();

  // The viewer moves in the grid's order; once the file shown leaves (trashed, moved out of this album) it
  // shows the one that took its place, and it closes when no file is left.
  const ordered = useMemo(() => groupByDay(files).flatMap((day) => day.files), [files]);
  const presentIDs = useMemo(() => new Set(files.map((file) => file.id)), [files]);
  // Files that left (trashed, moved out) leave the selection too (React's "adjust state when a prop changes").
  const selection = prune(selectionState, presentIDs);
  if (selection !== selectionState) setSelection(selection);
  const selectedIDs = [...selection.ids];
  let viewIndex = -1;
  if (viewing && ordered.length > 0) {
    const at =
      ordered[viewing.index]?.id === viewing.id ? viewing.index : ordered.findIndex((f) => f.id === viewing.id);
    viewIndex = at >= 0 ? at : Math.min(viewing.index, ordered.length - 1);
  }
  const viewed = ordered[viewIndex];
  const media = useViewerMedia(viewed);

  const { createAlbum, addToAlbum, moveToAlbum, trash, download } = actions;
  const clear = () => setSelection(emptySelection);
  const canPick = createAlbum !== undefined || albums.length > 0;

  if (files.length === 0) {
    return (
      <Box sx={{ py: 8, textAlign: 'center' }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('grid.empty_title')}
        </Typography>
        <Typography sx={{ color: 'text.secondary' }}>{t('grid.empty_body')}</Typography>
      </Box>
    );
  }

  return (
    <>
      <GalleryGrid
        files={files}
        label={label}
        Thumbnail={Thumbnail}
        onOpen={(file, index) => setViewing({ id: file.id, index })}
        selection={selection}
        onSelectionChange={setSelection}
      />
      <SelectionBar
        count={selection.ids.size}
        onClear={clear}
        onAddToAlbum={
          addToAlbum && canPick
            ? () =>
                dispatchDialog({
                  type: 'open',
                  dialog: { kind: 'pick', purpose: { kind: 'add' }, fileIDs: selectedIDs },
                })
            : undefined
        }
        onMoveToAlbum={
          moveToAlbum && album && canPick
            ? () =>
                dispatchDialog({
                  type: 'open',
                  dialog: { kind: 'pick', purpose: { kind: 'move', from: album }, fileIDs: selectedIDs },
                })
            : undefined
        }
        onDownload={download ? () => download(selectedIDs) : undefined}
        onTrash={
          trash ? () => dispatchDialog({ type: 'open', dialog: { kind: 'trash', fileIDs: selectedIDs } }) : undefined
        }
      />
      <AlbumDialogs
        dialog={dialog}
        onClose={(kind) => dispatchDialog({ type: 'close', kind })}
        onOpen={(next) => dispatchDialog({ type: 'open', dialog: next })}
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
      <LazyViewer
        open={viewed !== undefined}
        files={ordered}
        index={Math.max(0, viewIndex)}
        onIndexChange={(index) => {
          const file = ordered[index];
          if (file) setViewing({ id: file.id, index });
        }}
        onClose={() => setViewing(undefined)}
        source={media.source}
        previewUrl={media.previewUrl}
        details={media.details}
        onTrash={
          trash ? (file) => dispatchDialog({ type: 'open', dialog: { kind: 'trash', fileIDs: [file.id] } }) : undefined
        }
      />
    </>
  );
}
