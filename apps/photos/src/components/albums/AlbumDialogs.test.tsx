import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useReducer } from 'react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { Album } from '../../library/types.ts';
import { albumOf } from '../testing/files.ts';
import { albumDialogReducer, type AlbumDialog } from './album-dialog.ts';
import { AlbumDialogs, type AlbumDialogsProps } from './AlbumDialogs.tsx';

beforeAll(() => loadNamespace('photos'));

const trip = albumOf(1, 'Trip');
const cats = albumOf(2, 'Cats');
const created = albumOf(3, 'New one');

function renderDialogs(first: AlbumDialog, overrides: Partial<AlbumDialogsProps> = {}) {
  const actions = {
    onCreate: jest.fn((name: string) => Promise.resolve({ ...created, name })),
    onRename: jest.fn((_album: Album, _name: string) => Promise.resolve()),
    onDelete: jest.fn((_album: Album, _keep: boolean) => Promise.resolve()),
    onAdd: jest.fn((_album: Album, _ids: readonly number[]) => Promise.resolve()),
    onMove: jest.fn((_from: Album, _to: Album, _ids: readonly number[]) => Promise.resolve()),
    onTrash: jest.fn((_ids: readonly number[]) => Promise.resolve()),
    ...overrides,
  };
  let open: (dialog: AlbumDialog) => void = () => undefined;
  function Page() {
    const [dialog, dispatch] = useReducer(albumDialogReducer, first);
    open = (next) => dispatch({ type: 'open', dialog: next });
    return (
      <AlbumDialogs
        dialog={dialog}
        onClose={(kind) => dispatch({ type: 'close', kind })}
        onOpen={open}
        albums={[trip, cats]}
        {...actions}
      />
    );
  }
  renderInShell(<Page />);
  return { actions, open: (dialog: AlbumDialog) => act(() => open(dialog)) };
}

test('create: the name is required and trimmed; the dialog closes once created', async () => {
  const user = userEvent.setup();
  const { actions } = renderDialogs({ kind: 'create' });
  const dialog = await screen.findByRole('dialog', { name: 'New album' });
  const field = within(dialog).getByRole('textbox', { name: 'Album name' });
  expect(field).toHaveFocus();
  await user.click(within(dialog).getByRole('button', { name: 'Create' }));
  expect(within(dialog).getByText('Enter a name for the album.')).toBeInTheDocument();
  expect(actions.onCreate).not.toHaveBeenCalled();
  await user.type(field, '  Summer  {Enter}');
  expect(actions.onCreate).toHaveBeenCalledWith('Summer');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});

test('rename starts from the name; a failure keeps the dialog open and says so', async () => {
  const user = userEvent.setup();
  const onRename = jest.fn((_album: Album, _name: string) => Promise.reject(new Error('offline')));
  renderDialogs({ kind: 'rename', album: trip }, { onRename });
  const dialog = await screen.findByRole('dialog', { name: 'Rename album' });
  const field = within(dialog).getByRole('textbox', { name: 'Album name' });
  expect(field).toHaveValue('Trip');
  await user.clear(field);
  await user.type(field, 'Road trip');
  await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
  expect(onRename).toHaveBeenCalledWith(trip, 'Road trip');
  expect(await within(dialog).findByText('Something went wrong, please try again.')).toBeInTheDocument();
  expect(screen.getByRole('dialog', { name: 'Rename album' })).toBeInTheDocument();
});

test('delete keeps the photos unless asked to remove them', async () => {
  const user = userEvent.setup();
  const { actions, open } = renderDialogs({ kind: 'delete', album: trip });
  let dialog = await screen.findByRole('dialog', { name: 'Delete the album “Trip”?' });
  expect(within(dialog).getByRole('radio', { name: /Keep the photos/ })).toBeChecked();
  await user.click(within(dialog).getByRole('button', { name: 'Delete album' }));
  expect(actions.onDelete).toHaveBeenLastCalledWith(trip, true);
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

  open({ kind: 'delete', album: cats });
  dialog = await screen.findByRole('dialog', { name: 'Delete the album “Cats”?' });
  // A new opening starts afresh: keep is chosen again.
  expect(within(dialog).getByRole('radio', { name: /Keep the photos/ })).toBeChecked();
  await user.click(within(dialog).getByRole('radio', { name: /Remove the photos too/ }));
  await user.click(within(dialog).getByRole('button', { name: 'Delete album' }));
  expect(actions.onDelete).toHaveBeenLastCalledWith(cats, false);
});

test('pick: add to a chosen album; move offers every album but the one they come from', async () => {
  const user = userEvent.setup();
  const { actions, open } = renderDialogs({ kind: 'pick', purpose: { kind: 'add' }, fileIDs: [7, 8] });
  let dialog = await screen.findByRole('dialog', { name: 'Add to album' });
  await user.click(within(dialog).getByRole('button', { name: 'Cats' }));
  expect(actions.onAdd).toHaveBeenCalledWith(cats, [7, 8]);
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

  open({ kind: 'pick', purpose: { kind: 'move', from: trip }, fileIDs: [9] });
  dialog = await screen.findByRole('dialog', { name: 'Move to album' });
  expect(within(dialog).queryByRole('button', { name: 'Trip' })).not.toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Cats' }));
  expect(actions.onMove).toHaveBeenCalledWith(trip, cats, [9]);
});

test('pick → New album… creates the album, then adds the files to it', async () => {
  const user = userEvent.setup();
  const { actions } = renderDialogs({ kind: 'pick', purpose: { kind: 'add' }, fileIDs: [5] });
  await user.click(await screen.findByRole('button', { name: 'New album…' }));
  const dialog = await screen.findByRole('dialog', { name: 'New album' });
  await user.type(within(dialog).getByRole('textbox', { name: 'Album name' }), 'Fresh{Enter}');
  await waitFor(() => expect(actions.onAdd).toHaveBeenCalledWith({ ...created, name: 'Fresh' }, [5]));
});

test('trash says how many and that the trash keeps them 30 days; Cancel has the focus', async () => {
  const user = userEvent.setup();
  const { actions } = renderDialogs({ kind: 'trash', fileIDs: [1, 2, 3] });
  const dialog = await screen.findByRole('dialog', { name: 'Move to trash?' });
  expect(dialog).toHaveAccessibleDescription(
    'Items to move: 3. The trash deletes them for ever after 30 days; until then you can restore them.',
  );
  expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  await user.click(within(dialog).getByRole('button', { name: 'Move to trash' }));
  expect(actions.onTrash).toHaveBeenCalledWith([1, 2, 3]);
});
