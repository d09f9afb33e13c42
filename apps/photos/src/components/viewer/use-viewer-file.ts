// Which file the viewer of a view shows, as React state: a file and its place in the view's order. Once that
// file leaves (trashed, moved out of the album), the viewer shows the one that took its place; with no file
// left, it closes. What it shows of the file comes from the media loader's hook.
import { useState } from 'react';

import type { GalleryFile } from '../../library/types.ts';
import { orderedByDay } from '../gallery/grid-model.ts';
import type { FileDetails } from './viewer-model.ts';
import type { ViewerProps, ViewerSource } from './Viewer.tsx';

/** What the viewer shows of a file, from the media loader. */
export interface ViewerMedia {
  source: ViewerSource;
  /** The thumbnail's object URL, shown while the file loads. */
  previewUrl?: string;
  details?: FileDetails;
}

/** The media loader's hook: called on every render of the view, with undefined while the viewer is closed. */
export type UseViewerMedia = (file: GalleryFile | undefined) => ViewerMedia;

export function useViewerFile(files: readonly GalleryFile[], useViewerMedia: UseViewerMedia) {
  const [viewing, setViewing] = useState<{ id: number; index: number }>();
  // The grid's order: by day, newest first (grouped once for the grid and the viewer).
  const ordered = orderedByDay(files);
  let index = -1;
  if (viewing && ordered.length > 0) {
    const at =
      ordered[viewing.index]?.id === viewing.id ? viewing.index : ordered.findIndex((f) => f.id === viewing.id);
    index = at >= 0 ? at : Math.min(viewing.index, ordered.length - 1);
  }
  const file = ordered[index];
  const media = useViewerMedia(file);
  const show = (at: number) => {
    const next = ordered[at];
    if (next) setViewing({ id: next.id, index: at });
  };
  /** The viewer's props but for its trash action. */
  const viewerProps: Omit<ViewerProps, 'onTrash'> = {
    open: file !== undefined,
    files: ordered,
    index: Math.max(0, index),
    onIndexChange: show,
    onClose: () => setViewing(undefined),
    ...media,
  };
  /** The grid's onOpen: the viewer opens on that file. */
  const onOpen = (_file: GalleryFile, at: number) => show(at);
  return { onOpen, viewerProps };
}
