// The library's cache: one entity cache (@ente/shared/sync/entity-cache.ts) in the IndexedDB database
// `ente-photos-library` (declared in ../storage.ts, so that logout deletes it).
//
// [Note: Photos library cache]
// Every row the server sent is one entity record: its JSON in `encryptedData` (keys, names and metadata in it
// are the server's ciphertext; `header` is empty), `updatedAt` its server time, the kind in its id
// (cache-ids.ts): `c/<id>` a collection (deleted ones too: their keys open trash entries), `f/<collection>/<file>`
// a file as that collection holds it, `t/<file>` a trash entry. Each cursor is a record too (`cursor/c`,
// `cursor/t`, `cursor/f/<collection>`) whose `updatedAt` is the cursor, so that a page and its cursor are
// saved in one transaction and a cursor never moves back (the cache keeps the newer of two records). A page is
// saved only while the cache's cursor record is between the cursor the page was pulled from and the page's own
// (`requires`): over a cache another tab emptied it would carry a cursor past rows the cache no longer has, and over
// one another tab already saved further (pulling later) it would bring back rows deleted since.
import { trashEntrySchema, type TrashEntry } from '@ente/protocol/photos-trash-links.ts';
import { collectionSchema, photoFileSchema, type Collection, type PhotoFile } from '@ente/protocol/photos.ts';
import { entityCache, type CachedEntity } from '@ente/shared/sync/entity-cache.ts';

import { photosLibraryDB } from '../storage.ts';
import { parseCacheId } from './cache-ids.ts';

export const libraryCache = entityCache(photosLibraryDB.database);

/** A row as the cache keeps it. */
export function cachedRow(id: string, row: Collection | PhotoFile | TrashEntry, updatedAt: number): CachedEntity {
  return { id, encryptedData: JSON.stringify(row), header: '', updatedAt };
}

/**
 * The cache's records sorted by kind. A record that does not parse (damaged, or written before a schema the app
 * has since changed) is left out, and its cursor goes back to the start so that the next pull brings it again: a
 * pull from the cursor never would (an unreadable collection: no collections cursor, so the cache is not shown and
 * everything is pulled; a file: its collection's files again; a trash entry: the whole trash).
 */
export interface CachedRows {
  collections: Collection[];
  /** By collection id. */
  files: Map<number, PhotoFile[]>;
  trash: TrashEntry[];
  cursors: { collections: number; trash: number; files: Map<number, number> };
}

export function rowsOf(entities: readonly CachedEntity[]): CachedRows {
  const rows: CachedRows = {
    collections: [],
    files: new Map(),
    trash: [],
    cursors: { collections: 0, trash: 0, files: new Map() },
  };
  const unreadable = { collections: false, trash: false, files: new Set<number>() };
  for (const entity of entities) {
    const kind = parseCacheId(entity.id);
    if (!kind) continue;
    switch (kind.kind) {
      case 'collectionsCursor':
        rows.cursors.collections = entity.updatedAt;
        break;
      case 'trashCursor':
        rows.cursors.trash = entity.updatedAt;
        break;
      case 'filesCursor':
        rows.cursors.files.set(kind.collectionID, entity.updatedAt);
        break;
      case 'collection': {
        const row = parsed(entity, collectionSchema);
        if (row) rows.collections.push(row);
        else unreadable.collections = true;
        break;
      }
      case 'file': {
        const row = parsed(entity, photoFileSchema);
        if (!row) {
          unreadable.files.add(kind.collectionID);
          break;
        }
        const held = rows.files.get(kind.collectionID);
        if (held) held.push(row);
        else rows.files.set(kind.collectionID, [row]);
        break;
      }
      case 'trash': {
        const row = parsed(entity, trashEntrySchema);
        if (row) rows.trash.push(row);
        else unreadable.trash = true;
        break;
      }
    }
  }
  // After the loop: the cursor records may come before or after the rows they cover.
  if (unreadable.collections) rows.cursors.collections = 0;
  if (unreadable.trash) rows.cursors.trash = 0;
  for (const collectionID of unreadable.files) rows.cursors.files.delete(collectionID);
  return rows;
}

function parsed<T>(
  entity: CachedEntity,
  schema: { safeParse: (value: unknown) => { success: true; data: T } | { success: false } },
): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(entity.encryptedData));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
