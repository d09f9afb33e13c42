// Paste or drop of an image anywhere on the vault page: hands the image to the page, which opens the add
// dialog with it (`target: {kind: 'add', image}`); the dialog reads the QR code and shows what it held.
import { useEffect, useRef, useState } from 'react';

/**
 * While `enabled` (the vault is editable and no dialog is open), listens on the document for an image
 * pasted (Ctrl+V) or dropped, and calls `onImage` with it. Events something else already handled
 * (`defaultPrevented`, e.g. the add dialog's own paste and drop) are left alone, and so is a paste
 * without an image (text pasted into the search box stays text). Returns whether files are being
 * dragged over the page, to show where to drop them.
 */
export function useImageDrop(enabled: boolean, onImage: (image: Blob) => void): boolean {
  const [dragging, setDragging] = useState(false);
  const onImageRef = useRef(onImage);
  useEffect(() => {
    onImageRef.current = onImage;
  });

  useEffect(() => {
    if (!enabled) return;
    let depth = 0;
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
    const onPaste = (event: ClipboardEvent) => {
      if (event.defaultPrevented || !event.clipboardData) return;
      const image = firstFile(event.clipboardData, true);
      if (!image) return;
      event.preventDefault();
      onImageRef.current(image);
    };
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
      // Allows the drop (and keeps the browser from opening the file instead).
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (event: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (event.defaultPrevented || !event.dataTransfer) return;
      const image = firstFile(event.dataTransfer, false);
      if (!image) return;
      event.preventDefault();
      onImageRef.current(image);
    };
    document.addEventListener('paste', onPaste);
    document.addEventListener('dragenter', onDragEnter);
    document.addEventListener('dragleave', onDragLeave);
    document.addEventListener('dragover', onDragOver);
    document.addEventListener('drop', onDrop);
    return () => {
      document.removeEventListener('paste', onPaste);
      document.removeEventListener('dragenter', onDragEnter);
      document.removeEventListener('dragleave', onDragLeave);
      document.removeEventListener('dragover', onDragOver);
      document.removeEventListener('drop', onDrop);
      setDragging(false);
    };
  }, [enabled]);

  return dragging;
}

/** The first file of a paste or drop; from a paste only an image (a drop may bring any file: the reader decides). */
export function firstFile(transfer: DataTransfer, imagesOnly: boolean): File | undefined {
  for (const item of Array.from(transfer.items)) {
    if (item.kind !== 'file' || (imagesOnly && !item.type.startsWith('image/'))) continue;
    const file = item.getAsFile();
    if (file) return file;
  }
  return Array.from(transfer.files).find((file) => !imagesOnly || file.type.startsWith('image/'));
}
