// From what the server sent and what the crypto worker opened to the decrypted model of types.ts: pure
// functions, no I/O. A row whose decrypted metadata lacks what the gallery needs is dropped (null), as one
// that does not open is: the gallery shows what it can read.
import type { OpenedCollection } from '@ente/crypto/api.ts';
import type { PublicLink } from '@ente/protocol/photos-trash-links.ts';
import { collectionTypes, type Collection, type CollectionRole } from '@ente/protocol/photos.ts';

import { isRecord, numberOr, visibilityOf } from './file-model.ts';
import type { Album, AlbumLink, AlbumMember } from './types.ts';

export { galleryFileOf, metadataOf } from './file-model.ts';

// A sharee's role: OWNER is never one (the server could list the user as a sharee with it, and every page takes
// OWNER for "the user's own album", the target of uploads and restores), so it reads as VIEWER as unknown ones do.
const shareeRoles: readonly CollectionRole[] = ['VIEWER', 'COLLABORATOR', 'ADMIN'];
const roleOf = (role: string): CollectionRole =>
  (shareeRoles as readonly string[]).includes(role) ? (role as CollectionRole) : 'VIEWER';

/**
 * The album of a collection row opened by the worker; `userID` is the signed-in user. A row is the user's own
 * only when it names them as owner AND its key opened under their masterKey: a key sealed to their public key
 * could have been sealed by anyone (the server included), so a row naming the user as owner with a sealed key,
 * or another's row with a masterKey Box, is dropped (null) as one that did not open.
 */
export function albumOf(row: Collection, opened: OpenedCollection, userID: number): Album | null {
  const type = (collectionTypes as readonly string[]).includes(row.type) ? (row.type as Album['type']) : undefined;
  if (!type) return null;
  const ownedByUser = row.owner.id === userID;
  if (ownedByUser !== (opened.keyOpenedWith === 'masterKey')) return null;
  const owner: AlbumMember = { id: row.owner.id, email: row.owner.email, role: 'OWNER' };
  const sharees = (row.sharees ?? []).map((s) => ({ id: s.id, email: s.email, role: roleOf(s.role) }));
  const role: CollectionRole = ownedByUser ? 'OWNER' : (sharees.find((s) => s.id === userID)?.role ?? 'VIEWER');
  const album: Album = {
    id: row.id,
    name: opened.name,
    type,
    owner,
    role,
    key: opened.key,
    sharees,
    updationTime: row.updationTime,
  };
  const link = linkOf(row.publicURLs);
  if (link) album.link = link;
  const visibility = visibilityOf(role === 'OWNER' ? opened.magicMetadata : opened.sharedMagicMetadata);
  if (visibility) album.visibility = visibility;
  return album;
}

function linkOf(publicURLs: readonly unknown[] | null): AlbumLink | undefined {
  const link = publicURLs?.[0] as Partial<PublicLink> | undefined;
  if (!isRecord(link) || typeof link.url !== 'string') return undefined;
  return {
    url: link.url,
    passwordEnabled: link.passwordEnabled === true,
    enableDownload: link.enableDownload !== false,
    enableCollect: link.enableCollect === true,
    validTill: numberOr(link.validTill) ?? 0,
    deviceLimit: numberOr(link.deviceLimit) ?? 0,
  };
}
