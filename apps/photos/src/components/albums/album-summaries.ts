// What the album list shows of each album, pure: how many of the library's files it holds, its cover (its
// newest file) and when its newest file was taken, from the decrypted library; and the list's two orders.
import type { Album, GalleryFile } from '../../library/types.ts';
import { fileTime } from '../gallery/grid-model.ts';

export interface AlbumSummary {
  album: Album;
  count: number;
  /** Its newest file, whose thumbnail is the cover; none for an empty album. */
  cover?: GalleryFile;
  /** When its newest file was taken (µs); the album's last change when it is empty. */
  latest: number;
}

export type AlbumSort = 'name' | 'newest';

/** Each album with its count and cover, in one pass over the files. */
export function albumSummaries(albums: readonly Album[], files: readonly GalleryFile[]): AlbumSummary[] {
  const byID = new Map<number, AlbumSummary>(
    albums.map((album) => [album.id, { album, count: 0, latest: album.updationTime }]),
  );
  for (const file of files) {
    const time = fileTime(file);
    for (const id of new Set(file.collectionIDs)) {
      const summary = byID.get(id);
      if (!summary) continue;
      summary.count++;
      if (!summary.cover || time > fileTime(summary.cover)) {
        summary.cover = file;
        summary.latest = time;
      }
    }
  }
  return [...byID.values()];
}

/**
 * The summaries by name (the locale's collation, numbers as numbers; `nameOf` the name shown) or newest first; a
 * copy.
 */
export function sortAlbums(
  summaries: readonly AlbumSummary[],
  sort: AlbumSort,
  locale: string,
  nameOf: (album: Album) => string = (album) => album.name,
): AlbumSummary[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const byName = (a: AlbumSummary, b: AlbumSummary) => collator.compare(nameOf(a.album), nameOf(b.album));
  return [...summaries].sort(
    sort === 'name' ? (a, b) => byName(a, b) || a.album.id - b.album.id : (a, b) => b.latest - a.latest || byName(a, b),
  );
}
