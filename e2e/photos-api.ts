// What the server holds of a photos account, read over HTTP as another client would (docs/protocol.md#photos):
// the collections, each collection's files (every diff page), and the encrypted objects (followed through the
// 307 to the object store). Nothing here decrypts: photos-oracle.ts does, with libsodium alone.
import { api, clientPackage } from './api.ts';
import { serverUrl } from './stack.ts';

export interface ServerCollection {
  id: number;
  owner: { id: number };
  encryptedKey: string;
  keyDecryptionNonce?: string;
  encryptedName: string;
  nameDecryptionNonce: string;
  type: string;
  isDeleted: boolean;
}

interface ObjectAttributes {
  decryptionHeader: string;
  encryptedData?: string;
  size: number;
}

export interface ServerFile {
  id: number;
  ownerID: number;
  collectionID: number;
  encryptedKey: string;
  keyDecryptionNonce: string;
  file: ObjectAttributes;
  thumbnail: ObjectAttributes;
  metadata: ObjectAttributes & { encryptedData: string };
  isDeleted: boolean;
  updationTime: number;
}

export async function serverCollections(token: string): Promise<ServerCollection[]> {
  const answer = await api<{ collections: ServerCollection[] }>('photos', 'GET', '/collections/v2', {
    token,
    query: { sinceTime: '0' },
  });
  return answer.collections.filter((collection) => !collection.isDeleted);
}

/** The live files of a collection, every diff page read. */
export async function serverFiles(token: string, collectionID: number): Promise<ServerFile[]> {
  const files = new Map<number, ServerFile>();
  let sinceTime = 0;
  for (;;) {
    const page = await api<{ diff: ServerFile[]; hasMore: boolean }>('photos', 'GET', '/collections/v2/diff', {
      token,
      query: { collectionID: String(collectionID), sinceTime: String(sinceTime) },
    });
    for (const entry of page.diff) {
      if (entry.isDeleted) files.delete(entry.id);
      else files.set(entry.id, entry);
      sinceTime = Math.max(sinceTime, entry.updationTime);
    }
    if (!page.hasMore || page.diff.length === 0) return [...files.values()];
  }
}

/** The encrypted object of a file (`download`) or of its thumbnail (`preview`). */
export async function serverObject(token: string, kind: 'download' | 'preview', fileID: number): Promise<Uint8Array> {
  const response = await fetch(new URL(`/files/${kind}/${String(fileID)}`, serverUrl), {
    headers: { 'X-Auth-Token': token, 'X-Client-Package': clientPackage('photos') },
  });
  if (!response.ok) throw new Error(`GET /files/${kind}: ${String(response.status)}`);
  return new Uint8Array(await response.arrayBuffer());
}
