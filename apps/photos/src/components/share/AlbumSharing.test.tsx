import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { Album } from '../../library/types.ts';
import { albumOf, linkOf } from '../testing/files.ts';
import { AlbumSharing, type SharingDialog } from './AlbumSharing.tsx';
import type { AlbumSharingActions } from './share-types.ts';

beforeAll(() => loadNamespace('photos'));

const fromAnn = albumOf(3, 'From Ann', { role: 'VIEWER', owner: { id: 2, email: 'ann@example.org', role: 'OWNER' } });

/** The page's side: the albums as the library has them (leaving removes one), and which dialog is open. */
function renderSharing(first: SharingDialog, albums: Album[], leave: AlbumSharingActions['leave']) {
  const linkURL = jest.fn((album: Album) => album.link && `${album.link.url}#KEY`);
  function Page() {
    const [shown, setShown] = useState(albums);
    const [dialog, setDialog] = useState<SharingDialog | undefined>(first);
    const actions: AlbumSharingActions = {
      share: () => Promise.resolve(),
      unshare: () => Promise.resolve(),
      createLink: () => Promise.resolve(),
      updateLink: () => Promise.resolve(),
      deleteLink: () => Promise.resolve(),
      leave: async (album) => {
        await leave(album);
        setShown((now) => now.filter((each) => each.id !== album.id));
      },
      linkURL,
    };
    return <AlbumSharing dialog={dialog} albums={shown} actions={actions} onClose={() => setDialog(undefined)} />;
  }
  renderInShell(<Page />);
  return { linkURL };
}

test('leaving: the album leaves the library and the confirmation goes with it; a failure keeps it open', async () => {
  const user = userEvent.setup();
  const leave = jest.fn<(album: Album) => Promise<unknown>>().mockRejectedValueOnce(new Error('offline'));
  renderSharing({ kind: 'leave', albumID: fromAnn.id }, [fromAnn], leave);
  const dialog = await screen.findByRole('dialog', { name: 'Leave “From Ann”?' });
  expect(dialog).toHaveAccessibleDescription(
    'The album and its photos leave your library. Only its owner can share it with you again.',
  );
  leave.mockResolvedValueOnce(undefined);
  await user.click(within(dialog).getByRole('button', { name: 'Leave album' }));
  expect(await within(dialog).findByText('Something went wrong, please try again.')).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Leave album' }));
  expect(leave).toHaveBeenCalledTimes(2);
  expect(leave).toHaveBeenLastCalledWith(fromAnn);
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});

test("the share dialog shows the page's address of the album's link", async () => {
  const link = linkOf();
  const trip = albumOf(1, 'Trip', { link });
  const { linkURL } = renderSharing({ kind: 'share', albumID: 1 }, [trip], () => Promise.resolve());
  const dialog = await screen.findByRole('dialog', { name: 'Share “Trip”' });
  expect(within(dialog).getByRole('textbox', { name: 'Link' })).toHaveValue(`${link.url}#KEY`);
  expect(linkURL).toHaveBeenCalledWith(trip);
});
