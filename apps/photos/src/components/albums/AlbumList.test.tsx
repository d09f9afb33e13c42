import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { Album } from '../../library/types.ts';
import { thumbnailFromHook } from '../gallery/Thumbnail.tsx';
import { albumOf, fileAt } from '../testing/files.ts';
import { albumSummaries } from './album-summaries.ts';
import { AlbumList } from './AlbumList.tsx';

beforeAll(() => loadNamespace('photos'));

const zoo = albumOf(1, 'Zoo');
const beach = albumOf(2, 'Beach');
const albums = [
  zoo,
  beach,
  albumOf(3, 'From Ann', { role: 'VIEWER', owner: { id: 2, email: 'ann@example.org', role: 'OWNER' } }),
];
const files = [
  fileAt(10, new Date(2025, 0, 1), { collectionIDs: [1] }),
  fileAt(11, new Date(2024, 0, 1), { collectionIDs: [2] }),
  fileAt(12, new Date(2024, 0, 2), { collectionIDs: [2, 3] }),
];

function renderList(actions: {
  onOpen?: (album: Album) => void;
  onRename?: (album: Album) => void;
  onDelete?: (album: Album) => void;
  onCreate?: () => void;
}) {
  const Thumbnail = thumbnailFromHook((file) => ({ url: `blob:${file.id}` }));
  function Page() {
    return (
      <AlbumList
        albums={albumSummaries(albums, files)}
        Thumbnail={Thumbnail}
        onOpen={actions.onOpen ?? jest.fn()}
        onCreate={actions.onCreate}
        onRename={actions.onRename}
        onDelete={actions.onDelete}
      />
    );
  }
  return renderInShell(<Page />);
}

const cardNames = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => within(item).getAllByRole('button')[0]?.textContent);

test('albums with cover, name and count, newest first or by name; a card opens its album', async () => {
  const user = userEvent.setup();
  const onOpen = jest.fn<(album: Album) => void>();
  const { container } = renderList({ onOpen });
  const section = await screen.findByRole('region', { name: 'Your albums' });
  const list = within(section).getByRole('list');
  expect(cardNames(list)).toEqual(['ZooItems: 1', 'BeachItems: 2', 'From AnnItems: 1Shared by ann@example.org']);
  // The cover is the album's newest file.
  expect(container.querySelectorAll('img')[1]).toHaveAttribute('src', 'blob:12');

  await user.click(screen.getByRole('button', { name: 'Name' }));
  expect(screen.getByRole('button', { name: 'Name' })).toHaveAttribute('aria-pressed', 'true');
  expect(cardNames(list)).toEqual(['BeachItems: 2', 'From AnnItems: 1Shared by ann@example.org', 'ZooItems: 1']);

  await user.click(screen.getByRole('button', { name: /^Beach/ }));
  expect(onOpen).toHaveBeenCalledWith(beach);
});

test('the menu of an owned album renames or deletes it; a shared album has none; New album creates', async () => {
  const user = userEvent.setup();
  const onRename = jest.fn<(album: Album) => void>();
  const onDelete = jest.fn<(album: Album) => void>();
  const onCreate = jest.fn();
  renderList({ onRename, onDelete, onCreate });
  await user.click(await screen.findByRole('button', { name: 'Actions for Zoo' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
  expect(onRename).toHaveBeenCalledWith(zoo);
  await user.click(screen.getByRole('button', { name: 'Actions for Beach' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
  expect(onDelete).toHaveBeenCalledWith(beach);
  expect(screen.queryByRole('button', { name: 'Actions for From Ann' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'New album' }));
  expect(onCreate).toHaveBeenCalled();
});

test('no albums: says so', async () => {
  renderInShell(<AlbumList albums={[]} initialSort="name" onOpen={jest.fn()} />);
  expect(await screen.findByText('No albums yet. Create one to group your photos.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'New album' })).not.toBeInTheDocument();
});

test('share is in the menu of an owned album, leave in that of an album shared with the person', async () => {
  const user = userEvent.setup();
  const onShare = jest.fn<(album: Album) => void>();
  const onLeave = jest.fn<(album: Album) => void>();
  renderInShell(
    <AlbumList albums={albumSummaries(albums, files)} onOpen={jest.fn()} onShare={onShare} onLeave={onLeave} />,
  );
  await user.click(await screen.findByRole('button', { name: 'Actions for Zoo' }));
  expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Share']);
  await user.click(screen.getByRole('menuitem', { name: 'Share' }));
  expect(onShare).toHaveBeenCalledWith(zoo);
  await user.click(screen.getByRole('button', { name: 'Actions for From Ann' }));
  expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Leave album']);
  await user.click(screen.getByRole('menuitem', { name: 'Leave album' }));
  expect(onLeave).toHaveBeenCalledWith(expect.objectContaining({ name: 'From Ann' }));
  expect(onShare).toHaveBeenCalledTimes(1);
});

test('the "uncategorized" and "favorites" albums show by their translated names, with neither rename nor delete', async () => {
  const user = userEvent.setup();
  // The names stored are Ente's English ones (here made different, to see the translated ones shown instead).
  const special = [
    albumOf(4, 'stored uncategorized', { type: 'uncategorized' }),
    albumOf(5, 'stored favorites', { type: 'favorites' }),
    albumOf(6, 'Camera', { type: 'folder' }),
  ];
  renderInShell(
    <AlbumList
      albums={albumSummaries(special, [])}
      onOpen={jest.fn()}
      onRename={jest.fn()}
      onShare={jest.fn()}
      onDelete={jest.fn()}
    />,
  );
  expect(cardNames(await screen.findByRole('list'))).toEqual([
    'CameraItems: 0',
    'FavoritesItems: 0',
    'UncategorizedItems: 0',
  ]);
  // Nothing left to offer on "uncategorized": no menu at all.
  expect(screen.queryByRole('button', { name: 'Actions for Uncategorized' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Actions for Favorites' }));
  expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Share']);
  await user.keyboard('{Escape}');
  // A folder album (Ente's desktop app makes them) is the person's to rename and delete.
  await user.click(screen.getByRole('button', { name: 'Actions for Camera' }));
  expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Rename', 'Share', 'Delete']);
});
