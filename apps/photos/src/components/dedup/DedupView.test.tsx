import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { duplicateGroups, type DuplicateGroup } from '../../dedup/duplicates.ts';
import type { GalleryFile } from '../../library/types.ts';
import { albumOf, fileAt } from '../testing/files.ts';
import { DedupView, FILES_SHOWN, GROUPS_SHOWN } from './DedupView.tsx';

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

test('many groups come a page at a time and a big group shows some of its copies, so few thumbnails mount', async () => {
  const user = userEvent.setup();
  // One group of 30 copies, then 119 pairs: 150 groups' worth of thumbnails were 268 at once.
  const big = Array.from({ length: 30 }, (_, i) => same(1000 + i, 'big', [1]));
  const pairs = Array.from({ length: 119 }, (_, i) => [same(2 * i + 1, `p${i}`, [1]), same(2 * i + 2, `p${i}`, [1])]);
  const many = duplicateGroups([...big, ...pairs.flat()], 1, [albumOf(1, 'One')]);
  renderInShell(<DedupView groups={many} onRemove={jest.fn(() => Promise.resolve())} />);
  // Every group still counts in what goes.
  expect(
    await screen.findByText('Groups of identical files: 120. Files to remove: 148. Space freed: 148 MB.'),
  ).toBeInTheDocument();
  expect(screen.getAllByRole('checkbox')).toHaveLength(GROUPS_SHOWN);
  expect(screen.getAllByRole('img')).toHaveLength(FILES_SHOWN + (GROUPS_SHOWN - 1) * 2);
  expect(screen.getByText(`Copies not shown: ${30 - FILES_SHOWN}`)).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Show more (groups not shown: 70)' }));
  await user.click(screen.getByRole('button', { name: 'Show more (groups not shown: 20)' }));
  expect(screen.getAllByRole('checkbox')).toHaveLength(120);
  expect(screen.queryByRole('button', { name: /^Show more/ })).not.toBeInTheDocument();
});

test('a copy in an album the person can only view says it stays, and is the one kept where it can be', async () => {
  const pinned = duplicateGroups(
    [same(1, 'x', [2, 4]), same(2, 'x', [1, 2, 3]), same(3, 'x', [1, 3]), same(4, 'y', [1, 2]), same(5, 'y', [1, 4])],
    1,
    [
      albumOf(1, 'One'),
      albumOf(2, 'Two'),
      albumOf(3, 'Ann’s', { role: 'VIEWER' }),
      albumOf(4, 'Bob’s', { role: 'VIEWER' }),
    ],
  );
  renderInShell(<DedupView groups={pinned} onRemove={jest.fn(() => Promise.resolve())} />);
  const fate = async (title: string) => (await screen.findByRole('img', { name: title })).closest('li')?.textContent;
  expect(await fate('x-2.jpg')).toMatch(/Kept$/);
  expect(await fate('x-3.jpg')).toMatch(/To the trash$/);
  expect(await fate('x-1.jpg')).toMatch(/Stays: in an album you can only view$/);
  // y-4 is the older in as many albums, but y-5 is in a viewer's album: kept, so that y-4 can go.
  expect(await fate('y-5.jpg')).toMatch(/Kept$/);
  expect(await fate('y-4.jpg')).toMatch(/To the trash$/);
  expect(screen.getByText('Groups of identical files: 2. Files to remove: 2. Space freed: 2 MB.')).toBeInTheDocument();
});
