import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { Album } from '../../library/types.ts';
import { albumOf, fileAt } from '../testing/files.ts';
import { AlbumsView } from './AlbumsView.tsx';

beforeAll(() => loadNamespace('photos'));

const trip = albumOf(1, 'Trip');
const cats = albumOf(2, 'Cats');
const files = [
  fileAt(10, new Date(2025, 0, 2), { collectionIDs: [2] }),
  fileAt(11, new Date(2024, 0, 1), { collectionIDs: [1, 2] }),
];

function renderAlbums() {
  const actions = {
    createAlbum: jest.fn((name: string) => Promise.resolve(albumOf(3, name))),
    renameAlbum: jest.fn((_album: Album, _name: string) => Promise.resolve()),
    deleteAlbum: jest.fn((_album: Album, _keep: boolean) => Promise.resolve()),
  };
  const onOpen = jest.fn<(album: Album) => void>();
  renderInShell(<AlbumsView albums={[trip, cats]} files={files} onOpen={onOpen} actions={actions} />);
  return { actions, onOpen };
}

test('newest first by their newest photo; a card opens its album', async () => {
  const user = userEvent.setup();
  const { onOpen } = renderAlbums();
  const list = within(await screen.findByRole('region', { name: 'Your albums' })).getByRole('list');
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual(['CatsItems: 2', 'TripItems: 1']);
  await user.click(within(list).getByRole('button', { name: /^Trip/ }));
  expect(onOpen).toHaveBeenCalledWith(trip);
});

test('new album, rename and delete go through their dialogs to the page', async () => {
  const user = userEvent.setup();
  const { actions } = renderAlbums();
  await user.click(await screen.findByRole('button', { name: 'New album' }));
  await user.type(within(await screen.findByRole('dialog', { name: 'New album' })).getByRole('textbox'), 'Dogs{Enter}');
  expect(actions.createAlbum).toHaveBeenCalledWith('Dogs');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

  await user.click(screen.getByRole('button', { name: 'Actions for Trip' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
  const rename = await screen.findByRole('dialog', { name: 'Rename album' });
  await user.clear(within(rename).getByRole('textbox'));
  await user.type(within(rename).getByRole('textbox'), 'Road trip{Enter}');
  expect(actions.renameAlbum).toHaveBeenCalledWith(trip, 'Road trip');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

  await user.click(screen.getByRole('button', { name: 'Actions for Cats' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
  const remove = await screen.findByRole('dialog', { name: 'Delete the album “Cats”?' });
  await user.click(within(remove).getByRole('radio', { name: /Remove the photos too/ }));
  await user.click(within(remove).getByRole('button', { name: 'Delete album' }));
  expect(actions.deleteAlbum).toHaveBeenCalledWith(cats, false);
});

test('share opens the share dialog of the album (fetched when first opened); leave asks first', async () => {
  const user = userEvent.setup();
  const fromAnn = albumOf(3, 'From Ann', { role: 'VIEWER', owner: { id: 2, email: 'ann@example.org', role: 'OWNER' } });
  const sharing = {
    share: jest.fn((_album: Album, _email: string, _role: string) => Promise.resolve()),
    unshare: jest.fn(() => Promise.resolve()),
    createLink: jest.fn(() => Promise.resolve()),
    updateLink: jest.fn(() => Promise.resolve()),
    deleteLink: jest.fn(() => Promise.resolve()),
    leave: jest.fn((_album: Album) => Promise.resolve()),
    linkURL: () => undefined,
  };
  renderInShell(
    <AlbumsView albums={[trip, fromAnn]} files={files} onOpen={jest.fn()} actions={{}} sharing={sharing} />,
  );
  await user.click(await screen.findByRole('button', { name: 'Actions for Trip' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Share' }));
  const share = await screen.findByRole('dialog', { name: 'Share “Trip”' });
  await user.type(within(share).getByRole('textbox', { name: 'E-mail address' }), 'ann@example.org{Enter}');
  expect(sharing.share).toHaveBeenCalledWith(trip, 'ann@example.org', 'VIEWER');
  await user.click(within(share).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

  await user.click(screen.getByRole('button', { name: 'Actions for From Ann' }));
  await user.click(await screen.findByRole('menuitem', { name: 'Leave album' }));
  const leave = await screen.findByRole('dialog', { name: 'Leave “From Ann”?' });
  expect(within(leave).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  await user.click(within(leave).getByRole('button', { name: 'Leave album' }));
  expect(sharing.leave).toHaveBeenCalledWith(fromAnn);
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});
