// "Manage tags": every tag with its count; renaming calls onRename(from, to) and says when the new name
// merges two tags; a failed rename is shown and nothing else changes.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { TagsDialog } from './TagsDialog.tsx';
import { codeOf } from './testing/fixtures.ts';

beforeAll(async () => {
  await loadNamespace('codes');
});

const codes = [
  codeOf({ issuer: 'A', display: { tags: ['Work', 'Dev'] } }),
  codeOf({ issuer: 'B', display: { tags: ['Work'] } }),
  codeOf({ issuer: 'C' }),
];

test('lists the tags with their counts and renames one', async () => {
  const user = userEvent.setup();
  const onRename = jest.fn((_from: string, _to: string) => Promise.resolve());
  renderInShell(<TagsDialog open={true} codes={codes} onClose={() => undefined} onRename={onRename} />);
  const dialog = screen.getByRole('dialog', { name: 'Manage tags' });
  const items = within(dialog).getAllByRole('listitem');
  expect(items.map((item) => item.textContent)).toEqual(['DevCodes: 1', 'WorkCodes: 2']);

  await user.click(within(dialog).getByRole('button', { name: 'Rename the tag Work' }));
  const name = within(dialog).getByRole('textbox', { name: 'New name for Work' });
  expect(name).toHaveFocus();
  await user.clear(name);
  await user.type(name, 'Dev');
  expect(within(dialog).getByText('The tag Dev exists already: the two will become one.')).toBeVisible();
  await user.clear(name);
  await user.type(name, 'Job{Enter}');
  expect(onRename).toHaveBeenCalledWith('Work', 'Job');
});

test('a failed rename is shown; Escape cancels the rename, not the dialog', async () => {
  const user = userEvent.setup();
  const onRename = jest.fn((_from: string, _to: string) => Promise.reject(new Error('offline')));
  const onClose = jest.fn();
  renderInShell(<TagsDialog open={true} codes={codes} onClose={onClose} onRename={onRename} />);
  await user.click(screen.getByRole('button', { name: 'Rename the tag Dev' }));
  await user.type(screen.getByRole('textbox', { name: 'New name for Dev' }), 'ops{Enter}');
  expect(await screen.findByRole('alert')).toHaveTextContent('The tag could not be renamed on every code. Try again.');
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Rename the tag Dev' })).toHaveFocus();
  expect(onClose).not.toHaveBeenCalled();
});
