/** @jest-environment node */
// The duplicate rule of docs/protocol.md#photos-client-encryption (duplicates.ts).
import { expect, test } from '@jest/globals';

import { FileType, type GalleryFile } from '../library/types.ts';
import { contentHash, decideDuplicate, mayBeDuplicate } from './duplicates.ts';

const me = 7;
function file(id: number, collectionIDs: number[], metadata: Partial<GalleryFile['metadata']> = {}, ownerID = me) {
  return {
    id,
    ownerID,
    collectionIDs,
    key: 'k',
    fileHeader: 'h',
    thumbnailHeader: 't',
    updationTime: 0,
    metadata: {
      title: 'a.jpg',
      creationTime: 0,
      modificationTime: 0,
      fileType: FileType.image,
      hash: 'H',
      ...metadata,
    },
  } satisfies GalleryFile;
}
const key = { title: 'a.jpg', fileType: FileType.image, hash: 'H' };

test('same hash, title and type in the target album: skipped', () => {
  const existing = file(1, [10, 11]);
  expect(decideDuplicate(key, 11, [file(2, [12]), existing], me)).toEqual({ kind: 'skip', existing });
});

test('in another album of mine: added', () => {
  const existing = file(1, [12]);
  expect(decideDuplicate(key, 11, [existing], me)).toEqual({ kind: 'add', existing });
});

test('only in an album shared with me (someone else’s file): uploaded', () => {
  expect(decideDuplicate(key, 11, [file(1, [12], {}, 99)], me)).toEqual({ kind: 'upload' });
});

test('a different hash, title or type is no duplicate', () => {
  const files = [file(1, [11], { hash: 'other' }), file(2, [11], { title: 'b.jpg' }), file(3, [11], { fileType: 1 })];
  expect(decideDuplicate(key, 11, files, me)).toEqual({ kind: 'upload' });
});

test('mayBeDuplicate: only a file of the same title and type makes hashing first worth it', () => {
  expect(mayBeDuplicate('a.jpg', FileType.image, [file(1, [1])])).toBe(true);
  expect(mayBeDuplicate('a.jpg', FileType.video, [file(1, [1])])).toBe(false);
  expect(mayBeDuplicate('b.jpg', FileType.image, [file(1, [1])])).toBe(false);
});

test('a live photo is the same only with both of its hashes, as `imageHash:videoHash`', () => {
  const live = { fileType: FileType.livePhoto, hash: undefined, imageHash: 'I', videoHash: 'V' };
  const files = [file(3, [1], live)];
  const liveKey = { title: 'a.jpg', fileType: FileType.livePhoto };
  expect(decideDuplicate({ ...liveKey, hash: 'I:V' }, 1, files, me)).toMatchObject({ kind: 'skip' });
  expect(decideDuplicate({ ...liveKey, hash: 'I:W' }, 1, files, me)).toEqual({ kind: 'upload' });
  expect(contentHash({ imageHash: 'I' })).toBeUndefined();
  expect(contentHash({ hash: 'H', imageHash: 'I', videoHash: 'V' })).toBe('H');
});

test('the files are indexed once per list: asking again reads no file, a new list (a new snapshot) is read anew', () => {
  let reads = 0;
  const counted = (id: number, title: string) => {
    const plain = file(id, [1], { title });
    return Object.defineProperty({ ...plain }, 'metadata', {
      get: () => {
        reads += 1;
        return plain.metadata;
      },
    });
  };
  const files = Array.from({ length: 50 }, (_, i) => counted(i, `${i}.jpg`));
  expect(mayBeDuplicate('7.jpg', FileType.image, files)).toBe(true);
  const afterIndex = reads;
  expect(mayBeDuplicate('8.jpg', FileType.image, files)).toBe(true);
  expect(decideDuplicate({ ...key, title: '9.jpg' }, 1, files, me)).toMatchObject({ kind: 'skip' });
  // Only the one candidate's hash was read, not the 50 files again.
  expect(reads - afterIndex).toBe(1);
  const next = [...files, file(99, [1], { title: 'new.jpg' })];
  expect(mayBeDuplicate('new.jpg', FileType.image, next)).toBe(true);
  expect(mayBeDuplicate('new.jpg', FileType.image, files)).toBe(false);
});
