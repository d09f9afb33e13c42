import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { duplicateGroups, type DuplicateGroup } from '../../dedup/duplicates.ts';
import type { GalleryFile } from '../../library/types.ts';
import { albumOf, fileAt } from '../testing/files.ts';
import { DedupView } from './DedupView.tsx';

beforeAll(() => loadNamespace('photos'));

const same = (id: number, hash: string, collectionIDs: number[]): GalleryFile => {
  const file = fileAt(id, new Date(2025, 0, id), { collectionIDs, fileSize: 1024 * 1024 });
  return { ...file, metadata: { ...file.metadata, title: `${hash}-${id}.jpg`, hash } };
};
// Two groups: a (3 copies, the one in two albums kept) and b (2 copies, the oldest kept).
const files = [same(1, 'a', [1]), same(2, 'a', [1, 2]), same(3, 'a', [2]), same(4, 'b', [1]), same(5, 'b', [1])];
const groups = duplicateGroups(files, 1, [albumOf(1, 'One'), albumOf(2, 'Two')]);

test('each group shows the copy kept and those to trash; leaving one out changes what goes; removal is confirmed', async () => {
  const user = userEvent.setup();
  const onRemove = jest.fn((_groups: readonly DuplicateGroup[]) => Promise.resolve());
  renderInShell(<DedupView groups={groups} onRemove={onRemove} />);
  expect(
    await screen.findByText('Groups of identical files: 2. Files to remove: 3. Space freed: 3 MB.'),
  ).toBeInTheDocument();
  const [first, second] = screen.getAllByRole('checkbox', { name: /^Include this group/ });
  expect(first).toHaveAccessibleName('Include this group (Identical files: 3)');
  const kept = screen.getByRole('img', { name: 'a-2.jpg' }).closest('li');
  expect(kept).toHaveTextContent('Kept');
  expect(screen.getByRole('img', { name: 'a-3.jpg' }).closest('li')).toHaveTextContent('To the trash');

  await user.click(second as HTMLElement);
  expect(screen.getByText('Groups of identical files: 1. Files to remove: 2. Space freed: 2 MB.')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Remove duplicates' }));
  const dialog = await screen.findByRole('dialog', { name: 'Remove the duplicates?' });
  expect(dialog).toHaveAccessibleDescription(/^Files to move to the trash: 2\./);
  expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  await user.click(within(dialog).getByRole('button', { name: 'Remove duplicates' }));
  expect(onRemove.mock.calls[0]?.[0].map((group) => group.keep.id)).toEqual([2]);
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});

test('nothing chosen: nothing to remove; no groups: says so', async () => {
  const user = userEvent.setup();
  const { unmount } = renderInShell(<DedupView groups={groups} onRemove={jest.fn(() => Promise.resolve())} />);
  for (const box of await screen.findAllByRole('checkbox')) await user.click(box);
  expect(screen.getByRole('button', { name: 'Remove duplicates' })).toBeDisabled();
  unmount();
  renderInShell(<DedupView groups={[]} onRemove={jest.fn(() => Promise.resolve())} />);
  expect(await screen.findByText('No duplicates found.')).toBeInTheDocument();
});
