// "Restore" of the trash view: each trashed file goes back to an album of the user's own it was in (a hidden one
// counts: a hidden photo goes back there, not into "uncategorized", where it would show), else into
// "uncategorized"; one request per album. Linear in the trash and the selection: a whole trash of tens of thousands
// restored at once must not hold the page.
import type { Library } from '../library/use-library.ts';

export async function restoreFromTrash(
  library: Pick<Library, 'snapshot' | 'specialAlbum' | 'restoreFiles'>,
  ids: readonly number[],
): Promise<void> {
  const { trash, albums, hiddenAlbums } = library.snapshot();
  const own = new Set([...albums, ...hiddenAlbums].filter((album) => album.role === 'OWNER').map((album) => album.id));
  const wanted = new Set(ids);
  const byAlbum = new Map<number, number[]>();
  let fallback: number | undefined;
  for (const { file } of trash) {
    if (!wanted.has(file.id)) continue;
    const albumID =
      file.collectionIDs.find((id) => own.has(id)) ?? (fallback ??= (await library.specialAlbum('uncategorized')).id);
    const list = byAlbum.get(albumID);
    if (list) list.push(file.id);
    else byAlbum.set(albumID, [file.id]);
  }
  for (const [albumID, fileIDs] of byAlbum) await library.restoreFiles(albumID, fileIDs);
}
