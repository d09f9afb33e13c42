/** @jest-environment node */
import { albumOf } from '../testing/files.ts';
import { albumDialogReducer, type AlbumDialog } from './album-dialog.ts';

test('one dialog at a time; a close shuts only the dialog it names', () => {
  const rename: AlbumDialog = { kind: 'rename', album: albumOf(1, 'Trip') };
  const trash: AlbumDialog = { kind: 'trash', fileIDs: [1, 2] };
  let state = albumDialogReducer(undefined, { type: 'open', dialog: rename });
  expect(state).toBe(rename);
  // Opening another replaces it.
  state = albumDialogReducer(state, { type: 'open', dialog: trash });
  expect(state).toBe(trash);
  // The rename dialog's late close leaves the trash dialog open.
  state = albumDialogReducer(state, { type: 'close', kind: 'rename' });
  expect(state).toBe(trash);
  expect(albumDialogReducer(state, { type: 'close', kind: 'trash' })).toBeUndefined();
});
