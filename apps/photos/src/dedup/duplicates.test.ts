/** @jest-environment node */
// Duplicate groups (same bytes by metadata hash, live photos by both hashes, same type; the user's own files in
// their own albums), the one kept (most albums, then oldest upload), biggest groups first, and the plan: the kept
// file added to every album the others were in (where the user may add), then the others trashed.
import { expect, test } from '@jest/globals';

import { FileType, type Album, type FileMetadata, type GalleryFile } from '../library/types.ts';
import { contentHash, dedupPlan, duplicateGroups, keepOrder } from './duplicates.ts';

const me = 7;
const albums: Pick<Album, 'id' | 'role'>[] = [
  { id: 10, role: 'OWNER' },
  { id: 11, role: 'OWNER' },
  { id: 12, role: 'OWNER' },
  { id: 20, role: 'COLLABORATOR' },
  { id: 30, role: 'VIEWER' },
];

function galleryFile(
  id: number,
  collectionIDs: number[],
  hashes: Pick<FileMetadata, 'hash' | 'imageHash' | 'videoHash'>,
  options: { fileType?: FileType; ownerID?: number; fileSize?: number } = {},
): GalleryFile {
  return {
    id,
    ownerID: options.ownerID ?? me,
    collectionIDs,
    key: `key-${id}`,
    fileHeader: `fh-${id}`,
    thumbnailHeader: `th-${id}`,
    metadata: {
      title: `IMG_${id}.jpg`,
      creationTime: 1_700_000_000_000_000 + id,
      modificationTime: 1_700_000_000_000_000,
      fileType: options.fileType ?? FileType.image,
      ...hashes,
    },
    updationTime: 1_700_000_000_000_000 + id,
    ...(options.fileSize === undefined ? {} : { fileSize: options.fileSize }),
  };
}

const ids = (files: readonly GalleryFile[]) => files.map((file) => file.id);

test('the content hash is the metadata hash, or a live photo’s two hashes together', () => {
  expect(contentHash(galleryFile(1, [10], { hash: 'h' }))).toBe('h');
  expect(contentHash(galleryFile(2, [10], { imageHash: 'i', videoHash: 'v' }))).toBe('i:v');
  expect(contentHash(galleryFile(3, [10], { imageHash: 'i' }))).toBeUndefined();
  expect(contentHash(galleryFile(4, [10], {}))).toBeUndefined();
});

test('files group by hash and type; singles, files without a hash and other types stay out', () => {
  const files = [
    galleryFile(1, [10], { hash: 'a' }),
    galleryFile(2, [11], { hash: 'a' }),
    galleryFile(3, [10], { hash: 'a' }, { fileType: FileType.video }),
    galleryFile(4, [10], { hash: 'b' }),
    galleryFile(5, [10], {}),
    galleryFile(6, [10], {}),
    galleryFile(7, [10], { imageHash: 'i', videoHash: 'v' }, { fileType: FileType.livePhoto }),
    galleryFile(8, [12], { imageHash: 'i', videoHash: 'v' }, { fileType: FileType.livePhoto }),
    galleryFile(9, [12], { imageHash: 'i', videoHash: 'other' }, { fileType: FileType.livePhoto }),
  ];
  const groups = duplicateGroups(files, me, albums);
  expect(groups.map((group) => [group.key, ids(group.files)])).toEqual([
    [`${FileType.image}:a`, [1, 2]],
    [`${FileType.livePhoto}:i:v`, [7, 8]],
  ]);
});

test("only the user's own files in an album of their own count", () => {
  const files = [
    galleryFile(1, [10], { hash: 'a' }),
    galleryFile(2, [10], { hash: 'a' }, { ownerID: 99 }),
    galleryFile(3, [20], { hash: 'a' }),
    galleryFile(4, [20, 11], { hash: 'a' }),
  ];
  expect(duplicateGroups(files, me, albums).map((group) => ids(group.files))).toEqual([[4, 1]]);
});

test('the kept one is in the most albums, then the oldest upload; the rest go to the trash', () => {
  const files = [
    galleryFile(5, [10], { hash: 'a' }),
    galleryFile(3, [11], { hash: 'a' }),
    galleryFile(9, [10, 11, 12], { hash: 'a' }),
    galleryFile(4, [12], { hash: 'a' }),
  ];
  const [group] = duplicateGroups(files, me, albums);
  expect(group?.keep.id).toBe(9);
  expect(ids(group?.trash ?? [])).toEqual([3, 4, 5]);
  expect([...files].sort(keepOrder).map((file) => file.id)).toEqual([9, 3, 4, 5]);
});

test('biggest groups first, then the most bytes freed, then the kept file’s id', () => {
  const files = [
    galleryFile(1, [10], { hash: 'small' }, { fileSize: 10 }),
    galleryFile(2, [10], { hash: 'small' }, { fileSize: 10 }),
    galleryFile(3, [10], { hash: 'heavy' }, { fileSize: 5000 }),
    galleryFile(4, [10], { hash: 'heavy' }, { fileSize: 5000 }),
    galleryFile(5, [10], { hash: 'many' }, { fileSize: 1 }),
    galleryFile(6, [10], { hash: 'many' }, { fileSize: 1 }),
    galleryFile(7, [10], { hash: 'many' }, { fileSize: 1 }),
    galleryFile(8, [10], { hash: 'tie' }, { fileSize: 10 }),
    galleryFile(9, [10], { hash: 'tie' }, { fileSize: 10 }),
  ];
  const groups = duplicateGroups(files, me, albums);
  expect(groups.map((group) => [group.keep.id, group.freedBytes])).toEqual([
    [5, 2],
    [3, 5000],
    [1, 10],
    [8, 10],
  ]);
});

test('the plan adds each kept file where the others were (not where it is, nor as a viewer), then trashes', () => {
  const files = [
    // Group a: kept 1 (in 10 and 11); 2 is in 11 and 12, 3 in 20 (collaborator) and 30 (viewer).
    galleryFile(1, [10, 11], { hash: 'a' }),
    galleryFile(2, [11, 12], { hash: 'a' }),
    galleryFile(3, [10, 20, 30], { hash: 'a' }),
    // Group b: kept 4 (in 11 and 12, the older of two in two albums); 5 in 10 and an album the library does not know.
    galleryFile(4, [11, 12], { hash: 'b' }),
    galleryFile(5, [10, 40], { hash: 'b' }),
  ];
  const groups = duplicateGroups(files, me, albums);
  expect(groups.map((group) => group.keep.id)).toEqual([3, 4]);
  const plan = dedupPlan(groups, albums);
  expect(
    plan.map((request) => [request.kind, 'albumID' in request ? request.albumID : null, ids(request.files)]),
  ).toEqual([
    ['add-files', 10, [4]],
    ['add-files', 11, [3]],
    ['add-files', 12, [3]],
    ['trash', null, [1, 2, 5]],
  ]);
});

test('nothing chosen, nothing to do', () => {
  expect(dedupPlan([], albums)).toEqual([]);
  expect(duplicateGroups([galleryFile(1, [10], { hash: 'a' })], me, albums)).toEqual([]);
});

test('a copy in an album where the user is a viewer is kept, or stays; a group with nothing to trash is left out', () => {
  const withViewer = [...albums, { id: 31, role: 'VIEWER' as const }];
  const files = [
    // a: 1 is in more albums, but 2 is in a viewer's album: 2 is kept (added to 10 and 11), 1 goes.
    galleryFile(1, [10, 11], { hash: 'a' }),
    galleryFile(2, [12, 30], { hash: 'a' }),
    // b: each in a different viewer's album: neither can go.
    galleryFile(3, [10, 30], { hash: 'b' }),
    galleryFile(4, [11, 31], { hash: 'b' }),
    // c: both in the same viewer's album, where the kept one already is: 6 goes; 7 (another viewer's) stays.
    galleryFile(5, [10, 30], { hash: 'c' }),
    galleryFile(6, [11, 30], { hash: 'c' }),
    galleryFile(7, [12, 31], { hash: 'c' }),
  ];
  const groups = duplicateGroups(files, me, withViewer);
  expect(groups.map((group) => [group.keep.id, ids(group.trash), ids(group.stays), ids(group.files)])).toEqual([
    [5, [6], [7], [5, 6, 7]],
    [2, [1], [], [2, 1]],
  ]);
  expect(
    dedupPlan(groups, withViewer).map((request) => [
      request.kind,
      'albumID' in request ? request.albumID : null,
      ids(request.files),
    ]),
  ).toEqual([
    ['add-files', 10, [2]],
    ['add-files', 11, [5, 2]],
    ['trash', null, [6, 1]],
  ]);
});

test('the plan leaves out a copy whose album became a viewer’s after the groups were drawn', () => {
  const files = [galleryFile(1, [10, 11], { hash: 'a' }), galleryFile(2, [12, 20], { hash: 'a' })];
  const groups = duplicateGroups(files, me, albums);
  expect(ids(groups[0]?.trash ?? [])).toEqual([2]);
  const now = albums.map((album) => (album.id === 20 ? { ...album, role: 'VIEWER' as const } : album));
  expect(dedupPlan(groups, now)).toEqual([]);
});
