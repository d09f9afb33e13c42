// The grid's thumbnail component for every library page: the media loader's hook (decrypted in the media
// worker, kept as object URLs) through the grid's adapter, made once.
import { thumbnailFromHook } from '../components/gallery/Thumbnail.tsx';
import { useThumbnail } from '../media/use-thumbnail.ts';

export const LibraryThumbnail = thumbnailFromHook(useThumbnail);
