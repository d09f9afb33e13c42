// Files and folders dropped anywhere on the page (the gallery's upload by drag and drop): listens on the
// document, so the drop target is the whole window, and hands what was dropped to the page.
import { useEffect, useRef, useState } from 'react';

import { log } from '@ente/shared/log.ts';

import { pickedFromDrop, type PickedFile } from './picked-files.ts';

/**
 * While `onFiles` is set, takes drops of files and folders on the document and calls it with their files
 * (folders read recursively); a drag carrying no file (text, a link) is left to the browser. Returns whether
 * files are being dragged over the page, to show where to drop them.
 */
export function usePageDrop(onFiles: ((files: PickedFile[]) => void) | undefined): boolean {
  const [dragging, setDragging] = useState(false);
  const onFilesRef = useRef(onFiles);
  useEffect(() => {
    onFilesRef.current = onFiles;
  });
  const enabled = onFiles !== undefined;

  useEffect(() => {
    if (!enabled) return;
    // dragenter and dragleave fire for every element crossed: counted, so that moving over a child does not
    // hide the hint.
    let depth = 0;
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
    const onDragEnter = (event: DragEvent) => {
      if (event.defaultPrevented || !hasFiles(event)) return;
      depth++;
      setDragging(true);
    };
    const onDragLeave = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onDragOver = (event: DragEvent) => {
      if (event.defaultPrevented || !hasFiles(event)) return;
      // Allows the drop, and keeps the browser from opening the file instead.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (event: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (event.defaultPrevented || !event.dataTransfer || !hasFiles(event)) return;
      event.preventDefault();
      void pickedFromDrop(event.dataTransfer).then(
        (files) => {
          if (files.length > 0) onFilesRef.current?.(files);
        },
        // A folder that cannot be read (removed meanwhile, no permission) drops nothing.
        (e: unknown) => log.warn('Could not read what was dropped', e),
      );
    };
    document.addEventListener('dragenter', onDragEnter);
    document.addEventListener('dragleave', onDragLeave);
    document.addEventListener('dragover', onDragOver);
    document.addEventListener('drop', onDrop);
    return () => {
      document.removeEventListener('dragenter', onDragEnter);
      document.removeEventListener('dragleave', onDragLeave);
      document.removeEventListener('dragover', onDragOver);
      document.removeEventListener('drop', onDrop);
      setDragging(false);
    };
  }, [enabled]);

  return dragging;
}
