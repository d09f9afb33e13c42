// The record ids of the library's cache (one IndexedDB database, library-cache.ts): each row the server sent
// and each cursor is one entity of @ente/shared/sync/entity-cache.ts, its kind in its id, so that one
// transaction saves a page with its cursor. See: [Note: Photos library cache] in library-cache.ts.

export const cacheIds = {
  collection: (id: number) => `c/${String(id)}`,
  file: (collectionID: number, fileID: number) => `f/${String(collectionID)}/${String(fileID)}`,
  trashEntry: (fileID: number) => `t/${String(fileID)}`,
  collectionsCursor: 'cursor/c',
  trashCursor: 'cursor/t',
  filesCursor: (collectionID: number) => `cursor/f/${String(collectionID)}`,
};

/** What a record id names. */
export type CacheRecordKind =
  | { kind: 'collection'; id: number }
  | { kind: 'file'; collectionID: number; fileID: number }
  | { kind: 'trash'; fileID: number }
  | { kind: 'collectionsCursor' }
  | { kind: 'trashCursor' }
  | { kind: 'filesCursor'; collectionID: number };

export function parseCacheId(id: string): CacheRecordKind | undefined {
  if (id === cacheIds.collectionsCursor) return { kind: 'collectionsCursor' };
  if (id === cacheIds.trashCursor) return { kind: 'trashCursor' };
  const match = /^(c|t|f|cursor\/f)\/(\d{1,16})(?:\/(\d{1,16}))?$/.exec(id);
  if (!match) return undefined;
  const [, kind, first = '', second] = match;
  const a = Number(first);
  if (kind === 'f') return second === undefined ? undefined : { kind: 'file', collectionID: a, fileID: Number(second) };
  if (second !== undefined) return undefined;
  if (kind === 'c') return { kind: 'collection', id: a };
  if (kind === 't') return { kind: 'trash', fileID: a };
  return { kind: 'filesCursor', collectionID: a };
}
