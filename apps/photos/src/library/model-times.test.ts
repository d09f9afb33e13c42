/**
 * @jest-environment node
 */
// A time a Date cannot hold (any sharer can write one in a file's metadata) is refused by the model: formatting it
// would throw while the gallery renders.
import type { PhotoFile } from '@ente/protocol/photos.ts';

import { galleryFileOf, metadataOf } from './model.ts';

const base = { title: 'a.jpg', modificationTime: 1, fileType: 0 };

test('a creation time beyond a Date drops the file; a modification or edited time beyond it is ignored', () => {
  expect(metadataOf({ ...base, creationTime: 1e17 * 1000 })).toBeNull();
  expect(metadataOf({ ...base, creationTime: -8.65e18 })).toBeNull();
  expect(metadataOf({ ...base, creationTime: 8.64e18 })?.creationTime).toBe(8.64e18);
  expect(metadataOf({ ...base, creationTime: 5, modificationTime: 1e19 })?.modificationTime).toBe(5);
  const row = {
    id: 3,
    ownerID: 1,
    collectionID: 1,
    file: { decryptionHeader: 'h' },
    thumbnail: { decryptionHeader: 't' },
    updationTime: 1,
  } as PhotoFile;
  const opened = { key: 'k', metadata: { ...base, creationTime: 5 }, pubMagicMetadata: { editedTime: -1e19 } };
  expect(galleryFileOf(row, opened)).not.toHaveProperty('editedTime');
  expect(galleryFileOf(row, { ...opened, pubMagicMetadata: { editedTime: 7 } })?.editedTime).toBe(7);
});
