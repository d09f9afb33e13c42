// Saving a file through the browser's own download: a temporary link to an object URL, clicked and removed.
// Used for the auth app's exports, the recovery words and the photos app's downloads without a file picker.

/** How long the object URL lives: some browsers read it only after click() returned, a large Blob for a while. */
const REVOKE_AFTER_MS = 60_000;

/** Offers `blob` as a download named `fileName`. */
export function saveBlobAs(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
