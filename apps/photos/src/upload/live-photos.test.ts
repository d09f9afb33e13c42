/** @jest-environment node */
// Which picked files become live photos (live-photos.ts): an image and a video of the same name in the same
// folder, each within 20 MB and a day of each other, nothing ambiguous.
import { expect, test } from '@jest/globals';

import { LIVE_PHOTO_PART_MAX_BYTES, livePhotoZipEntries, pairLivePhotos, type PickedInput } from './live-photos.ts';

const at = 1_700_000_000_000;
const picked = (relativePath: string, { size = 10, lastModified = at } = {}) => ({
  file: new File([new Uint8Array(size)], relativePath.split('/').pop() ?? '', { lastModified }),
  relativePath,
});
/** Each input as its name, a live photo as "image+video". */
const names = (inputs: PickedInput[]) =>
  inputs.map(({ input }) => (input instanceof File ? input.name : `${input.image.name}+${input.video.name}`));

test('an image and a video sharing a name in one folder pair, in the image’s place; the rest stay files', () => {
  const inputs = pairLivePhotos([
    picked('Trip/a.jpg'),
    picked('Trip/IMG_1.HEIC'),
    picked('Trip/notes.txt'),
    picked('Trip/IMG_1.MOV'),
    picked('Trip/IMG_2.jpg'),
  ]);
  expect(names(inputs)).toEqual(['a.jpg', 'IMG_1.HEIC+IMG_1.MOV', 'notes.txt', 'IMG_2.jpg']);
  expect(inputs[1]!.relativePath).toBe('Trip/IMG_1.HEIC');
});

test('loose files pair too; the exporters’ video suffixes pair with the image', () => {
  expect(names(pairLivePhotos([picked('IMG_3.MOV'), picked('IMG_3.JPG')]))).toEqual(['IMG_3.JPG+IMG_3.MOV']);
  expect(names(pairLivePhotos([picked('IMG_4.HEIC'), picked('IMG_4_HEVC.MOV')]))).toEqual([
    'IMG_4.HEIC+IMG_4_HEVC.MOV',
  ]);
  expect(names(pairLivePhotos([picked('IMG_5.HEIC'), picked('IMG_5.HEIC.mp4')]))).toEqual([
    'IMG_5.HEIC+IMG_5.HEIC.mp4',
  ]);
});

test('no pair across folders, of two images or two videos, or when a name is ambiguous', () => {
  expect(names(pairLivePhotos([picked('A/IMG_1.jpg'), picked('B/IMG_1.mov')]))).toEqual(['IMG_1.jpg', 'IMG_1.mov']);
  expect(names(pairLivePhotos([picked('IMG_1.jpg'), picked('IMG_1.png')]))).toEqual(['IMG_1.jpg', 'IMG_1.png']);
  expect(names(pairLivePhotos([picked('IMG_1.mp4'), picked('IMG_1.mov')]))).toEqual(['IMG_1.mp4', 'IMG_1.mov']);
  expect(names(pairLivePhotos([picked('IMG_1.jpg'), picked('IMG_1.heic'), picked('IMG_1.mov')]))).toEqual([
    'IMG_1.jpg',
    'IMG_1.heic',
    'IMG_1.mov',
  ]);
  expect(names(pairLivePhotos([picked('IMG_1.jpg'), picked('IMG_1.mov'), picked('IMG_1.HEIC.mov')]))).toEqual([
    'IMG_1.jpg',
    'IMG_1.mov',
    'IMG_1.HEIC.mov',
  ]);
});

test('no pair when a part is over 20 MB or the two are more than a day apart', () => {
  const big = { size: LIVE_PHOTO_PART_MAX_BYTES + 1 };
  expect(names(pairLivePhotos([picked('IMG_1.jpg', big), picked('IMG_1.mov')]))).toEqual(['IMG_1.jpg', 'IMG_1.mov']);
  const edge = { size: LIVE_PHOTO_PART_MAX_BYTES };
  expect(names(pairLivePhotos([picked('IMG_1.jpg', edge), picked('IMG_1.mov')]))).toEqual(['IMG_1.jpg+IMG_1.mov']);
  const later = { lastModified: at + 24 * 3600_000 + 1 };
  expect(names(pairLivePhotos([picked('IMG_1.jpg'), picked('IMG_1.mov', later)]))).toEqual(['IMG_1.jpg', 'IMG_1.mov']);
  const sameDay = { lastModified: at + 24 * 3600_000 };
  expect(names(pairLivePhotos([picked('IMG_1.jpg'), picked('IMG_1.mov', sameDay)]))).toEqual(['IMG_1.jpg+IMG_1.mov']);
});

test('the ZIP entries are image.<ext> and video.<ext>, with each part’s size and time', () => {
  const image = new File([new Uint8Array(3)], 'IMG_1.HEIC', { lastModified: at });
  const video = new File([new Uint8Array(5)], 'IMG_1.mov', { lastModified: at + 1 });
  expect(livePhotoZipEntries(image, video)).toEqual([
    { name: 'image.HEIC', size: 3, lastModified: new Date(at) },
    { name: 'video.mov', size: 5, lastModified: new Date(at + 1) },
  ]);
});
