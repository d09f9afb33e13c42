import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { TrashedFile } from '../../library/types.ts';
import type { ThumbnailProps } from '../gallery/Thumbnail.tsx';
import { fileAt } from '../testing/files.ts';
import { daysLeft, TrashView, type TrashViewActions } from './TrashView.tsx';

beforeAll(async () => {
  await loadNamespace('photos');
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

const now = new Date(2025, 5, 10, 12).getTime();
const day = 86_400_000;
// IMG_1 goes in 3 days (and a bit), IMG_2 in 29, IMG_3 today.
const initial: TrashedFile[] = [
  { file: fileAt(1, new Date(2025, 4, 3, 12)), deleteBy: (now + 2.5 * day) * 1000 },
  { file: fileAt(2, new Date(2025, 4, 2, 12)), deleteBy: (now + 29 * day) * 1000 },
  { file: fileAt(3, new Date(2025, 4, 1, 12)), deleteBy: (now + 60_000) * 1000 },
];

function renderTrash(start = initial) {
  const calls = {
    restore: jest.fn<(ids: readonly number[]) => void>(),
    deleteForever: jest.fn<(ids: readonly number[]) => void>(),
    emptyTrash: jest.fn(),
  };
  function Page() {
    const [trash, setTrash] = useState(start);
    const remove = (ids: readonly number[]) => setTrash((current) => current.filter((e) => !ids.includes(e.file.id)));
    const done = async (call: () => void, after: () => void) => {
      call();
      await Promise.resolve();
      after();
    };
    const actions: TrashViewActions = {
      restore: (ids) =>
        done(
          () => calls.restore(ids),
          () => remove(ids),
        ),
      deleteForever: (ids) =>
        done(
          () => calls.deleteForever(ids),
          () => remove(ids),
        ),
      emptyTrash: () => done(calls.emptyTrash, () => setTrash([])),
    };
    return (
      <TrashView trash={trash} useViewerMedia={() => ({ source: { status: 'loading' } })} actions={actions} now={now} />
    );
  }
  renderInShell(<Page />);
  return calls;
}

test('days left round up and stop at zero', () => {
  expect(daysLeft((now + 2.5 * day) * 1000, now)).toBe(3);
  expect(daysLeft((now + day) * 1000, now)).toBe(1);
  expect(daysLeft((now - day) * 1000, now)).toBe(0);
});

test('each file says how long it has left; the trash says when it deletes', async () => {
  renderTrash();
  const grid = await screen.findByRole('grid', { name: 'Trash' });
  expect(within(grid).getByRole('button', { name: 'IMG_1.jpg Days left: 3' })).toBeInTheDocument();
  expect(within(grid).getByRole('button', { name: 'IMG_2.jpg Days left: 29' })).toBeInTheDocument();
  expect(within(grid).getByRole('button', { name: 'IMG_3.jpg Days left: 1' })).toBeInTheDocument();
  expect(
    screen.getByText('Items in the trash are deleted for ever 30 days after they were trashed.'),
  ).toBeInTheDocument();
});

test('restore a selection; delete another for ever once confirmed', async () => {
  const user = userEvent.setup();
  const calls = renderTrash();
  await user.click(await screen.findByRole('checkbox', { name: 'Select IMG_1.jpg' }));
  await user.click(screen.getByRole('checkbox', { name: 'Select IMG_3.jpg' }));
  await user.click(screen.getByRole('button', { name: 'Restore' }));
  expect(calls.restore).toHaveBeenCalledWith([1, 3]);
  await waitFor(() => expect(screen.queryByRole('toolbar')).not.toBeInTheDocument());

  await user.click(screen.getByRole('checkbox', { name: 'Select IMG_2.jpg' }));
  await user.click(screen.getByRole('button', { name: 'Delete for ever' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete for ever?' });
  expect(dialog).toHaveAccessibleDescription('Items to delete: 1. They cannot be restored afterwards.');
  expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  await user.click(within(dialog).getByRole('button', { name: 'Delete for ever' }));
  expect(calls.deleteForever).toHaveBeenCalledWith([2]);
  expect(await screen.findByText('The trash is empty.')).toBeInTheDocument();
});

test('a restore that fails says so; the selection stays for another try', async () => {
  const user = userEvent.setup();
  const restore = jest.fn((_ids: readonly number[]) => Promise.reject(new Error('offline')));
  renderInShell(
    <TrashView
      trash={initial}
      useViewerMedia={() => ({ source: { status: 'loading' } })}
      actions={{ restore }}
      now={now}
    />,
  );
  await user.click(await screen.findByRole('checkbox', { name: 'Select IMG_2.jpg' }));
  await user.click(screen.getByRole('button', { name: 'Restore' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'The items could not be restored. Check your connection and try again.',
  );
  expect(screen.getByRole('checkbox', { name: 'Select IMG_2.jpg' })).toBeChecked();
});

test('a change of the trash mounts no thumbnail anew; the days left follow it', async () => {
  const mounted: number[] = [];
  function Thumbnail({ file, alt }: ThumbnailProps) {
    useEffect(() => void mounted.push(file.id), [file.id]);
    return <img src={`blob:${file.id}`} alt={alt} />;
  }
  let setTrash: (trash: readonly TrashedFile[]) => void = () => undefined;
  function Page() {
    const [trash, set] = useState<readonly TrashedFile[]>(initial);
    setTrash = set;
    const media = () => ({ source: { status: 'loading' } }) as const;
    return <TrashView trash={trash} Thumbnail={Thumbnail} useViewerMedia={media} actions={{}} now={now} />;
  }
  renderInShell(<Page />);
  expect(await screen.findByRole('button', { name: 'IMG_2.jpg Days left: 29' })).toBeInTheDocument();
  expect(mounted.sort()).toEqual([1, 2, 3]);
  const [first, second] = initial as [TrashedFile, TrashedFile];
  act(() => setTrash([first, { ...second, deleteBy: (now + 5 * day) * 1000 }]));
  expect(await screen.findByRole('button', { name: 'IMG_2.jpg Days left: 5' })).toBeInTheDocument();
  expect(mounted).toEqual([1, 2, 3]);
});

test('empty the trash once confirmed', async () => {
  const user = userEvent.setup();
  const calls = renderTrash();
  await user.click(await screen.findByRole('button', { name: 'Empty trash' }));
  const dialog = await screen.findByRole('dialog', { name: 'Empty the trash?' });
  await user.click(within(dialog).getByRole('button', { name: 'Empty trash' }));
  expect(calls.emptyTrash).toHaveBeenCalled();
  expect(await screen.findByText('The trash is empty.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Empty trash' })).not.toBeInTheDocument();
});
