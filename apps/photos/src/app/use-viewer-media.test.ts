/**
 * @jest-environment node
 */
// The viewer's object URLs are typed (media/media-type.ts): a live photo's parts as the ZIP's bytes say (its
// "image" may be anything an uploader wrote), a video's from its title, passed on to the media loader.
import { makeZip } from 'client-zip';

import { FileType, type GalleryFile } from '../library/types.ts';
import { openOriginal, originalURL } from '../media/media.ts';
import { loadOriginal } from './use-viewer-media.ts';

jest.mock('../media/media.ts', () => ({
  openOriginal: jest.fn(),
  originalURL: jest.fn(() => Promise.resolve('blob:original')),
  keptThumbnailURL: jest.fn(),
}));

const file = (title: string, fileType: FileType): GalleryFile => ({
  id: 1,
  ownerID: 7,
  collectionIDs: [1],
  key: 'k',
  fileHeader: 'h',
  thumbnailHeader: 't',
  metadata: { title, creationTime: 0, modificationTime: 0, fileType },
  updationTime: 0,
});

test('a live photo’s parts get the type of their bytes (octet-stream for HTML), its video the type of its name', async () => {
  const made: Blob[] = [];
  URL.createObjectURL = (blob: Blob) => `blob:${String(made.push(blob))}`;
  const zip = makeZip([
    { name: 'image.jpg', input: new TextEncoder().encode('<!doctype html><script>alert(1)</script>') },
    { name: 'video.mov', input: new Uint8Array([0, 0, 0, 20, 0x66, 0x74, 0x79, 0x70]) },
  ]);
  jest.mocked(openOriginal).mockResolvedValue(zip);
  const loaded = await loadOriginal(file('Live.HEIC', FileType.livePhoto));
  expect(loaded.owned).toEqual(['blob:1', 'blob:2']);
  expect(made.map((blob) => blob.type)).toEqual(['application/octet-stream', 'video/quicktime']);

  await loadOriginal(file('clip.MP4', FileType.video));
  await loadOriginal(file('photo.jpg', FileType.image));
  expect(jest.mocked(originalURL).mock.calls.map(([, videoType]) => videoType)).toEqual(['video/mp4', undefined]);
});
