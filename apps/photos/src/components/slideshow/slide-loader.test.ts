// A slide whose image does not decode is loaded once more before it fails: the media loader's LRU of originals may
// have revoked its object URL while loads piled up, and a second load comes as a fresh URL.
import { expect, jest, test } from '@jest/globals';

import { fileAt } from '../testing/files.ts';
import { SlideLoader, type Slide } from './slide-loader.ts';

const files = [fileAt(1, new Date(2025, 0, 1)), fileAt(2, new Date(2025, 0, 2))];

test('a slide whose URL went before it decoded is loaded again; one that never decodes fails after two tries', async () => {
  let made = 0;
  const released: string[] = [];
  const loadSlide = jest.fn((file: { id: number }): Promise<Slide> => {
    const url = `blob:${file.id}/${++made}`;
    return Promise.resolve({ url, release: () => void released.push(url) });
  });
  // File 1's first URL was revoked under it; file 2 never decodes.
  const decode = (url: string) =>
    url === 'blob:1/1' || url.startsWith('blob:2/') ? Promise.reject(new Error('no')) : Promise.resolve();
  const loader = new SlideLoader(files, loadSlide, decode);
  expect((await loader.load(0)).url).toBe('blob:1/2');
  expect(released).toEqual(['blob:1/1']);
  await expect(loader.load(1)).rejects.toThrow('no');
  expect(loadSlide.mock.calls.map(([file]) => file.id)).toEqual([1, 1, 2, 2]);
});
