// Files and folders dropped anywhere on the page (the gallery's upload by drag and drop): listens on the
// document, so the drop target is the whole window, and hands what was dropped to the page.
import { useEffect, useRef, useState } from 'react';

import { log } from '@ente/shared/log.ts';

import { pickedFromDrop, UnreadableDropError, type PickedFile } from './picked-files.ts';

/**
 * A drag over the page sends `dragover` every 50 ms or so, even when still; this long without one, it has left
 * the window or was cancelled. Simpler and surer than pairing `dragenter` and `dragleave` over every element.
 */
const dragGoneMs = 250;

export interface PageDrop {
  /** Whether files are being dragged over the page, to show where to drop them. */
  dragging: boolean;
  /** How many entries of the last drop could not be read and were left out (0: none, or told already). */
  unreadable: number;
  /** The person has read how many were left out. */
  dismissUnreadable: () => void;
  /**
   * Files came over a page that refuses them with a reason (see `refusing`): it says why until dismissed. Set at the
   * drag, not only at the drop: a browser sends no drop where `dropEffect` is none.
   */
  refused: boolean;
  dismissRefused: () => void;
}

/**
 * While `onFiles` is set, takes drops of files and folders on the document and calls it with their files
 * (folders read recursively; the entries that cannot be read are left out and counted in `unreadable`). Where it
 * is not set (a page without uploads, the trash) a file dragged over the page is refused (`dropEffect` none)
 * rather than left to the browser, which would open the file in the tab and end its running uploads; with
 * `refusing` (a page that has a reason to tell: an album shared to view only), `dragging` still shows while files
 * are over the page and `refused` is set, so that the page says why nothing is uploaded. A drag carrying no
 * file (text, a link) is always left to the browser.
 */
export function usePageDrop(onFiles: ((files: PickedFile[]) => void) | undefined, refusing = false): PageDrop {
  const [dragging, setDragging] = useState(false);
  const [unreadable, setUnreadable] = useState(0);
  const [refused, setRefused] = useState(false);
  const onFilesRef = useRef(onFiles);
  const refusingRef = useRef(refusing);
  useEffect(() => {
    onFilesRef.current = onFiles;
    refusingRef.current = refusing;
  });

  useEffect(() => {
    let gone: ReturnType<typeof setTimeout> | undefined;
    const listener = {
      handleEvent(event: DragEvent) {
        const transfer = event.dataTransfer;
        if (!transfer?.types.includes('Files') || event.defaultPrevented) return;
        // Keeps the browser from opening the file (and leaving the page); allows the drop only where it uploads.
        event.preventDefault();
        clearTimeout(gone);
        const taking = onFilesRef.current !== undefined;
        if (!taking) transfer.dropEffect = 'none';
        if (!taking && !refusingRef.current) {
          setDragging(false);
          return;
        }
        if (event.type === 'dragover') {
          if (taking) transfer.dropEffect = 'copy';
          else setRefused(true);
          setDragging(true);
          gone = setTimeout(() => setDragging(false), dragGoneMs);
          return;
        }
        setDragging(false);
        if (!taking) {
          setRefused(true);
          return;
        }
        pickedFromDrop(transfer).then(
          ({ files, unreadable: left }) => {
            setUnreadable(left);
            if (files.length > 0) onFilesRef.current?.(files);
          },
          // Nothing of the drop could be read (removed meanwhile, no permission): the person is told so.
          (e: unknown) => {
            log.warn('Could not read what was dropped', e);
            setUnreadable(e instanceof UnreadableDropError ? e.unreadable : 1);
          },
        );
      },
    };
    for (const type of ['dragover', 'drop']) document.addEventListener(type, listener);
    return () => {
      for (const type of ['dragover', 'drop']) document.removeEventListener(type, listener);
      clearTimeout(gone);
      setDragging(false);
    };
  }, []);

  return {
    dragging,
    unreadable,
    dismissUnreadable: () => setUnreadable(0),
    refused,
    dismissRefused: () => setRefused(false),
  };
}
