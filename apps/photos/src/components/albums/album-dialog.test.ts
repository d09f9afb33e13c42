/** @jest-environment node */
import { albumOf } from '../testing/files.ts';
import { albumDialogOfKind, albumDialogReducer, type AlbumDialog } from './album-dialog.ts';

test('one dialog at a time; a close shuts only the dialog it names', () => {
  const album = albumOf(1, 'Trip');
  let state: AlbumDialog | undefined = albumDialogReducer(undefined, {
    type: 'open',
    dialog: { kind: 'rename', album },
  });
  expect(albumDialogOfKind(state, 'rename')?.album).toBe(album);
  // Opening another replaces it.
  state = albumDialogReducer(state, { type: 'open', dialog: { kind: 'trash', fileIDs: [1, 2] } });
  expect(albumDialogOfKind(state, 'rename')).toBeUndefined();
  // The rename dialog's late close leaves the trash dialog open.
  state = albumDialogReducer(state, { type: 'close', kind: 'rename' });
  expect(albumDialogOfKind(state, 'trash')?.fileIDs).toEqual([1, 2]);
  expect(albumDialogReducer(state, { type: 'close', kind: 'trash' })).toBeUndefined();
});
