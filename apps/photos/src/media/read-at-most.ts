// The photos app's caps on what it reads whole (readAtMost and capBytes of @ente/shared/media/read-at-most.ts):
// the server and other sharers are untrusted, and a read without a cap lets them take the tab's memory.

/** The most of a thumbnail read (Ente's are at most about 100 KB): a larger answer is refused, not read. */
export const THUMBNAIL_MAX_BYTES = 1024 * 1024;
/** The most of an original gathered whole for the viewer (a video included); larger is refused (`tooLarge`). */
export const VIEWER_ORIGINAL_MAX_BYTES = 1024 ** 3;
