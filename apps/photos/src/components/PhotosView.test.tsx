import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { Album, GalleryFile } from '../library/types.ts';
import { PhotosView, type PhotosViewActions, type ViewerMedia } from './PhotosView.tsx';
import { albumOf, fileAt } from './testing/files.ts';

beforeAll(async () => {
  await loadNamespace('photos');
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});

const trip = albumOf(1, 'Trip');
const cats = albumOf(2, 'Cats');
// Newest first: IMG_1 … IMG_4.
const initial = Array.from({ length: 4 }, (_, i) => fileAt(i + 1, new Date(2025, 5, 1, 12, 59 - i)));

/** The view as a page holds it: the files in state, the trash removing them, as the library would. */
function renderView({ album, extra = {} }: { album?: Album; extra?: PhotosViewActions } = {}) {
  const calls = {
    trash: jest.fn<(ids: readonly number[]) => void>(),
    add: jest.fn((_album: Album, _ids: readonly number[]) => Promise.resolve()),
    move: jest.fn((_from: Album, _to: Album, _ids: readonly number[]) => Promise.resolve()),
  };
  const useViewerMedia = (file: GalleryFile | undefined): ViewerMedia =>
    file ? { source: { status: 'ready', url: `blob:${file.id}` } } : { source: { status: 'loading' } };
  function Page() {
    const [files, setFiles] = useState(initial);
    const actions: PhotosViewActions = {
      trash: async (ids) => {
        calls.trash(ids);
        await Promise.resolve();
        setFiles((current) => current.filter((file) => !ids.includes(file.id)));
      },
      addToAlbum: calls.add,
      moveToAlbum: calls.move,
      ...extra,
    };
    return (
      <PhotosView files={files} album={album} albums={[trip, cats]} useViewerMedia={useViewerMedia} actions={actions} />
    );
  }
  renderInShell(<Page />);
  return calls;
}

async function select(user: ReturnType<typeof userEvent.setup>, ...names: string[]) {
  for (const name of names) await user.click(await screen.findByRole('checkbox', { name: `Select ${name}` }));
}

test('selected files go to the trash once confirmed; the bar goes with them', async () => {
  const user = userEvent.setup();
  const calls = renderView();
  await select(user, 'IMG_2.jpg', 'IMG_3.jpg');
  const bar = screen.getByRole('toolbar', { name: 'Selected items' });
  expect(within(bar).getByText('2 selected')).toBeInTheDocument();
  await user.click(within(bar).getByRole('button', { name: 'Move to trash' }));
  const dialog = await screen.findByRole('dialog', { name: 'Move to trash?' });
  expect(dialog).toHaveAccessibleDescription(/^Items to move: 2\./);
  await user.click(within(dialog).getByRole('button', { name: 'Move to trash' }));
  expect(calls.trash).toHaveBeenCalledWith([2, 3]);
  await waitFor(() => expect(screen.queryByRole('button', { name: 'IMG_2.jpg' })).not.toBeInTheDocument());
  expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
  expect(screen.getAllByRole('button', { name: /^IMG_/ }).map((b) => b.getAttribute('data-file-id'))).toEqual([
    '1',
    '4',
  ]);
});

test('add to an album from the bar, then the selection is done with; move is offered in an album only', async () => {
  const user = userEvent.setup();
  const calls = renderView();
  await select(user, 'IMG_1.jpg');
  expect(screen.queryByRole('button', { name: 'Move to album' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Add to album' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add to album' });
  // No createAlbum action: no "New album…".
  expect(within(dialog).queryByRole('button', { name: 'New album…' })).not.toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Cats' }));
  expect(calls.add).toHaveBeenCalledWith(cats, [1]);
  await waitFor(() => expect(screen.queryByRole('toolbar')).not.toBeInTheDocument());
});

test("in an album's view, move offers the other albums", async () => {
  const user = userEvent.setup();
  const calls = renderView({ album: trip });
  await select(user, 'IMG_4.jpg');
  await user.click(screen.getByRole('button', { name: 'Move to album' }));
  const dialog = await screen.findByRole('dialog', { name: 'Move to album' });
  expect(within(dialog).queryByRole('button', { name: 'Trip' })).not.toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Cats' }));
  expect(calls.move).toHaveBeenCalledWith(trip, cats, [4]);
});

test("in an album's view, remove from album hands the selection to the page; elsewhere it is not offered", async () => {
  const user = userEvent.setup();
  const removeFromAlbum = jest.fn((_from: Album, _ids: readonly number[]) => Promise.resolve());
  renderView({ album: trip, extra: { removeFromAlbum } });
  await select(user, 'IMG_2.jpg', 'IMG_3.jpg');
  await user.click(screen.getByRole('button', { name: 'Remove from album' }));
  expect(removeFromAlbum).toHaveBeenCalledWith(trip, [2, 3]);
});

test('a removal from the album that fails says so', async () => {
  const user = userEvent.setup();
  const removeFromAlbum = jest.fn((_from: Album, _ids: readonly number[]) => Promise.reject(new Error('offline')));
  renderView({ album: trip, extra: { removeFromAlbum } });
  await select(user, 'IMG_2.jpg');
  await user.click(screen.getByRole('button', { name: 'Remove from album' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(
    'The items could not be removed from the album. Check your connection and try again.',
  );
});

test('remove from album needs an album', async () => {
  const user = userEvent.setup();
  renderView({ extra: { removeFromAlbum: jest.fn(() => Promise.resolve()) } });
  await select(user, 'IMG_1.jpg');
  expect(screen.queryByRole('button', { name: 'Remove from album' })).not.toBeInTheDocument();
});

test('the viewer opens on a click; Delete trashes the file shown once confirmed, and the next one takes its place', async () => {
  const user = userEvent.setup();
  const calls = renderView();
  await user.click(await screen.findByRole('button', { name: 'IMG_2.jpg' }));
  const viewer = await screen.findByRole('dialog', { name: 'IMG_2.jpg' });
  expect(within(viewer).getByRole('img', { name: 'IMG_2.jpg' })).toHaveAttribute('src', 'blob:2');
  expect(within(viewer).getByText('2 of 4')).toBeInTheDocument();
  await user.keyboard('{Delete}');
  const confirm = await screen.findByRole('dialog', { name: 'Move to trash?' });
  await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
  expect(calls.trash).toHaveBeenCalledWith([2]);
  await waitFor(() => expect(screen.getByRole('dialog', { name: 'IMG_3.jpg' })).toBeInTheDocument());
  expect(screen.getByText('2 of 3')).toBeInTheDocument();
});

test('no files: says so', async () => {
  renderInShell(
    <PhotosView files={[]} albums={[]} useViewerMedia={() => ({ source: { status: 'loading' } })} actions={{}} />,
  );
  expect(await screen.findByRole('heading', { name: 'No photos yet' })).toBeInTheDocument();
  expect(screen.getByText('Upload photos and videos, or drop them on this page.')).toBeInTheDocument();
});
