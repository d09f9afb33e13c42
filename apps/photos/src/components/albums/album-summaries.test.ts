/** @jest-environment node */
import { albumOf, fileAt } from '../testing/files.ts';
import { albumSummaries, sortAlbums } from './album-summaries.ts';

test('counts, covers (the newest file) and latest times, a file in several albums counted in each', () => {
  const albums = [albumOf(1, 'Trip'), albumOf(2, 'Cats'), albumOf(3, 'Empty', { updationTime: 42 })];
  const files = [
    fileAt(10, new Date(2025, 0, 1), { collectionIDs: [1, 2] }),
    fileAt(11, new Date(2025, 0, 3), { collectionIDs: [1] }),
    fileAt(12, new Date(2024, 0, 3), { collectionIDs: [2, 99] }),
  ];
  const summaries = albumSummaries(albums, files);
  expect(summaries.map((s) => [s.album.name, s.count, s.cover?.id, s.latest])).toEqual([
    ['Trip', 2, 11, new Date(2025, 0, 3).getTime() * 1000],
    ['Cats', 2, 10, new Date(2025, 0, 1).getTime() * 1000],
    ['Empty', 0, undefined, 42],
  ]);
});

test('by name in the locale (numbers as numbers, case aside) or newest first', () => {
  const summaries = [
    { album: albumOf(1, 'trip 10'), count: 0, latest: 3 },
    { album: albumOf(2, 'Trip 9'), count: 0, latest: 1 },
    { album: albumOf(3, 'Ärzte'), count: 0, latest: 2 },
  ];
  expect(sortAlbums(summaries, 'name', 'de-DE').map((s) => s.album.name)).toEqual(['Ärzte', 'Trip 9', 'trip 10']);
  expect(sortAlbums(summaries, 'newest', 'en-US').map((s) => s.album.id)).toEqual([1, 3, 2]);
  // By the names shown, when they are not the stored ones.
  const shown = (album: { id: number; name: string }) => (album.id === 3 ? 'Zoo' : album.name);
  expect(sortAlbums(summaries, 'name', 'de-DE', shown).map((s) => s.album.id)).toEqual([2, 1, 3]);
  // A copy: the input keeps its order.
  expect(summaries.map((s) => s.album.id)).toEqual([1, 2, 3]);
});
