import { fakeCode } from '../list/testing/fake-vault.ts';
import { dialogOfKind, pageDialogReducer, type PageDialog } from './page-dialog.ts';

const code = fakeCode({ issuer: 'GitHub' });

test('opening a dialog replaces the one open', () => {
  const editor: PageDialog = { kind: 'editor', target: { kind: 'add' } };
  const opened = pageDialogReducer(undefined, { type: 'open', dialog: editor });
  expect(opened).toBe(editor);
  expect(pageDialogReducer(opened, { type: 'open', dialog: { kind: 'showQR', code } })).toEqual({
    kind: 'showQR',
    code,
  });
});

test('a close shuts only the dialog it names', () => {
  const share: PageDialog = { kind: 'share', code };
  expect(pageDialogReducer(share, { type: 'close', kind: 'share' })).toBeUndefined();
  // A late close of the editor leaves the share dialog opened since.
  expect(pageDialogReducer(share, { type: 'close', kind: 'editor' })).toBe(share);
  expect(pageDialogReducer(undefined, { type: 'close', kind: 'import' })).toBeUndefined();
});

test('dialogOfKind narrows to the open dialog of that kind', () => {
  const qr: PageDialog = { kind: 'showQR', code };
  expect(dialogOfKind(qr, 'showQR')?.code).toBe(code);
  expect(dialogOfKind(qr, 'share')).toBeUndefined();
  expect(dialogOfKind(undefined, 'tags')).toBeUndefined();
});
