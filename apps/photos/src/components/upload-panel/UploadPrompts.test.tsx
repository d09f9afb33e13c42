import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { UploadPrompts } from './UploadPrompts.tsx';

beforeAll(() => loadNamespace('photos'));

test('nested folders: a dialog asks one album per folder (focused) or one for the whole tree; Escape cancels', async () => {
  const user = userEvent.setup();
  const choose = jest.fn();
  const { unmount } = renderInShell(<UploadPrompts nested={{ folders: 3, choose }} />);
  const dialog = screen.getByRole('dialog', { name: 'Folders inside folders' });
  expect(dialog).toHaveAccessibleDescription(/\(3 of them\)/);
  expect(screen.getByRole('button', { name: 'One album per folder' })).toHaveFocus();
  await user.keyboard('{Enter}');
  expect(choose).toHaveBeenLastCalledWith('perFolder');
  await user.click(screen.getByRole('button', { name: 'One album for the whole tree' }));
  expect(choose).toHaveBeenLastCalledWith('tree');
  await user.keyboard('{Escape}');
  expect(choose).toHaveBeenLastCalledWith(undefined);
  unmount();
});

test('an interrupted upload: resume what has handles, say how many to pick again, discard', async () => {
  const user = userEvent.setup();
  const left = { count: 5, resumable: 2, resume: jest.fn(), discard: jest.fn() };
  renderInShell(<UploadPrompts left={left} />);
  const notice = screen.getByRole('region', { name: 'Interrupted upload' });
  expect(notice).toHaveTextContent('Files not sent: 5.');
  expect(notice).toHaveTextContent('(3 to pick)');
  await user.click(screen.getByRole('button', { name: 'Resume (2)' }));
  expect(left.resume).toHaveBeenCalled();
  await user.click(screen.getByRole('button', { name: 'Discard' }));
  expect(left.discard).toHaveBeenCalled();
});

test('nothing to resume by itself: no Resume button', () => {
  renderInShell(<UploadPrompts left={{ count: 1, resumable: 0, resume: jest.fn(), discard: jest.fn() }} />);
  expect(screen.queryByRole('button', { name: /Resume/ })).toBeNull();
  expect(screen.getByRole('region', { name: 'Interrupted upload' })).toHaveTextContent('(1 to pick)');
});

test('an upload that failed before reaching the panel is said, until dismissed', async () => {
  const user = userEvent.setup();
  const dismiss = jest.fn();
  renderInShell(<UploadPrompts failed={{ dismiss }} />);
  expect(screen.getByRole('alert')).toHaveTextContent('The upload could not start');
  await user.click(screen.getByRole('button', { name: 'Close' }));
  expect(dismiss).toHaveBeenCalled();
});
