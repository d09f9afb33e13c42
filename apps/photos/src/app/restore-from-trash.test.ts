// Restore from the trash: each file back to an album of the user's own it was in (a hidden one too), else into
// "uncategorized" (asked for once); only the files chosen; and a whole trash of 40,000 restored in linear time.
import { expect, test } from '@jest/globals';

import { albumOf, fileAt } from '../components/testing/files.ts';
import type { Library } from '../library/use-library.ts';
import { restoreFromTrash } from './restore-from-trash.ts';

function standIn(
  trashIDs: [number, number[]][],
  {
    albums = [albumOf(1, 'Own'), albumOf(2, 'Ann’s', { role: 'COLLABORATOR' })],
    hiddenAlbums = [albumOf(3, 'Hidden')],
  } = {},
) {
  const calls: { special: number; restored: [number, number[]][] } = { special: 0, restored: [] };
  const trash = trashIDs.map(([id, collectionIDs]) => ({
    file: fileAt(id, new Date(2025, 0, 1), { collectionIDs }),
    deleteBy: 0,
  }));
  const library = {
    snapshot: () => ({ trash, albums, hiddenAlbums }),
    specialAlbum: () => {
      calls.special++;
      return Promise.resolve(albumOf(9, 'Uncategorized', { type: 'uncategorized' }));
    },
    restoreFiles: (albumID: number, fileIDs: readonly number[]) => {
      calls.restored.push([albumID, [...fileIDs]]);
      return Promise.resolve();
    },
  } as unknown as Pick<Library, 'snapshot' | 'specialAlbum' | 'restoreFiles'>;
  return { library, calls };
}

test('each file goes back to an own album it was in, hidden ones too, else to "uncategorized"; only those chosen', async () => {
  const { library, calls } = standIn([
    [10, [1]],
    [11, [2, 1]],
    [12, [3]],
    [13, [2]],
    [14, [2]],
    [15, [1]],
  ]);
  await restoreFromTrash(library, [10, 11, 12, 13, 14]);
  expect(calls.restored).toEqual([
    [1, [10, 11]],
    [3, [12]],
    [9, [13, 14]],
  ]);
  expect(calls.special).toBe(1);
});

test('a whole trash of 40,000 restores without a pause of the page (it was quadratic: seconds)', async () => {
  const count = 40_000;
  const { library, calls } = standIn(Array.from({ length: count }, (_, i): [number, number[]] => [i + 1, [1]]));
  // Every read of the chosen ids is counted: linear work reads each a few times, a lookup per file 40,000 each.
  let reads = 0;
  const ids = new Proxy(
    Array.from({ length: count }, (_, i) => i + 1),
    {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    },
  );
  await restoreFromTrash(library, ids);
  expect(reads).toBeLessThanOrEqual(3 * count);
  expect(calls.restored[0]?.[1]).toHaveLength(count);
});
