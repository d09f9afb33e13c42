import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';

import { ApiError, NetworkError } from '@ente/shared/http.ts';
import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import type { Album } from '../../library/types.ts';
import { albumOf, linkOf } from '../testing/files.ts';
import type { LinkChange, ShareActions, ShareRole } from './share-types.ts';
import { ShareDialog } from './ShareDialog.tsx';

beforeAll(() => loadNamespace('photos'));

const friend = { id: 2, email: 'friend@example.org', role: 'VIEWER' as const };
const link = linkOf();

/**
 * The dialog over an album the actions change as the library would (the page passes the library's latest), or
 * fail with what `failWith` answers. Returns the actions' mocks and the dialog.
 */
function renderShare(start: Album, failWith?: (action: string) => Error | undefined) {
  const calls: unknown[][] = [];
  let setAlbum: (change: (album: Album) => Album) => void = () => undefined;
  const act = (name: string, args: unknown[], change: (album: Album) => Album) => {
    calls.push([name, ...args]);
    const failure = failWith?.(name);
    if (failure !== undefined) return Promise.reject(failure);
    setAlbum(change);
    return Promise.resolve();
  };
  const actions: ShareActions = {
    share: (_album, email, role: ShareRole) =>
      act('share', [email, role], (album) => ({
        ...album,
        sharees: [...album.sharees.filter((each) => each.email !== email), { id: 9, email, role }],
      })),
    unshare: (_album, email) =>
      act('unshare', [email], (album) => ({ ...album, sharees: album.sharees.filter((s) => s.email !== email) })),
    createLink: () => act('createLink', [], (album) => ({ ...album, link })),
    updateLink: (_album, change: LinkChange) =>
      act('updateLink', [change], (album) => {
        const { password, ...rest } = change;
        const next = { ...album.link!, ...rest };
        if (password !== undefined) next.passwordEnabled = password !== null;
        return { ...album, link: next };
      }),
    deleteLink: () => act('deleteLink', [], (album) => ({ ...album, link: undefined })),
  };
  function Page() {
    const [album, set] = useState(start);
    setAlbum = (change) => set(change);
    const linkURL = album.link && `${album.link.url}#KEYINFRAGMENT`;
    return <ShareDialog open album={album} linkURL={linkURL} actions={actions} onClose={() => undefined} />;
  }
  renderInShell(<Page />);
  return { calls, dialog: () => screen.getByRole('dialog', { name: 'Share “Trip”' }) };
}

test('shares with an address as viewer or collaborator; the list shows each sharee with their role', async () => {
  const user = userEvent.setup();
  const { calls, dialog } = renderShare(albumOf(1, 'Trip'));
  expect(within(dialog()).getByText('Not shared with anyone yet.')).toBeInTheDocument();
  await user.type(within(dialog()).getByRole('textbox', { name: 'E-mail address' }), '  Friend@Example.org ');
  await user.selectOptions(within(dialog()).getByRole('combobox', { name: 'Role' }), 'Collaborator');
  await user.click(within(dialog()).getByRole('button', { name: 'Share' }));
  expect(calls).toEqual([['share', 'friend@example.org', 'COLLABORATOR']]);
  const list = await within(dialog()).findByRole('list', { name: 'People the album is shared with' });
  expect(within(list).getByText('friend@example.org')).toBeInTheDocument();
  expect(within(list).getByRole('combobox', { name: 'Role of friend@example.org' })).toHaveValue('COLLABORATOR');
  expect(within(dialog()).getByRole('textbox', { name: 'E-mail address' })).toHaveValue('');
});

test("an invalid address, one's own, one shared already are said before anything is sent", async () => {
  const user = userEvent.setup();
  const { calls, dialog } = renderShare(albumOf(1, 'Trip', { sharees: [friend] }));
  const field = within(dialog()).getByRole('textbox', { name: 'E-mail address' });
  const cases: [string, string][] = [
    ['friend@', 'Enter a valid e-mail address.'],
    ['me@example.org', "This is your own address. Enter someone else's."],
    ['FRIEND@example.org', 'The album is already shared with this address.'],
  ];
  for (const [typed, said] of cases) {
    await user.clear(field);
    await user.type(field, `${typed}{Enter}`);
    expect(field).toHaveAccessibleDescription(said);
    expect(field).toHaveAttribute('aria-invalid', 'true');
  }
  expect(calls).toEqual([]);
});

test("the server's answer for an address without an account, and a network failure, are said plainly", async () => {
  const user = userEvent.setup();
  let failure: Error = new ApiError('no public key for this e-mail', 'NOT_FOUND', 404);
  const { dialog } = renderShare(albumOf(1, 'Trip'), () => failure);
  const field = within(dialog()).getByRole('textbox', { name: 'E-mail address' });
  await user.type(field, 'nobody@example.org{Enter}');
  await waitFor(() =>
    expect(field).toHaveAccessibleDescription('No account uses this address. Ask them to sign up first.'),
  );
  failure = new NetworkError();
  await user.click(within(dialog()).getByRole('button', { name: 'Share' }));
  expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
    'No connection to the server. Check your network and try again.',
  );
  // The address typed stays, to try again.
  expect(field).toHaveValue('nobody@example.org');
});

test("a sharee's role changes in place; removing one asks first, with Cancel focused", async () => {
  const user = userEvent.setup();
  const { calls, dialog } = renderShare(albumOf(1, 'Trip', { sharees: [friend] }));
  await user.selectOptions(
    within(dialog()).getByRole('combobox', { name: 'Role of friend@example.org' }),
    'Collaborator',
  );
  expect(calls).toEqual([['share', 'friend@example.org', 'COLLABORATOR']]);
  await user.click(within(dialog()).getByRole('button', { name: 'Stop sharing with friend@example.org' }));
  const confirm = within(dialog()).getByRole('group', { name: /^Stop sharing with friend@example.org\?/ });
  expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
  await user.keyboard('{Enter}');
  expect(within(dialog()).queryByRole('group')).not.toBeInTheDocument();
  expect(calls).toHaveLength(1);
  await user.click(within(dialog()).getByRole('button', { name: 'Stop sharing with friend@example.org' }));
  await user.click(within(dialog()).getByRole('button', { name: 'Stop sharing' }));
  expect(calls[1]).toEqual(['unshare', 'friend@example.org']);
  expect(await within(dialog()).findByText('Not shared with anyone yet.')).toBeInTheDocument();
});

test('the link: created, its address (with the key in the fragment) shown read-only and copied', async () => {
  const user = userEvent.setup();
  const { calls, dialog } = renderShare(albumOf(1, 'Trip'));
  expect(within(dialog()).queryByTestId('public-link-url')).not.toBeInTheDocument();
  await user.click(within(dialog()).getByRole('button', { name: 'Create link' }));
  expect(calls).toEqual([['createLink']]);
  const field = await within(dialog()).findByRole('textbox', { name: 'Link' });
  expect(field).toHaveValue(`${link.url}#KEYINFRAGMENT`);
  expect(field).toHaveAttribute('readonly');
  expect(within(dialog()).getByTestId('public-link-url')).toBe(field);
  const writeText = jest.spyOn(navigator.clipboard, 'writeText');
  await user.click(within(dialog()).getByRole('button', { name: 'Copy link' }));
  expect(writeText).toHaveBeenCalledWith(`${link.url}#KEYINFRAGMENT`);
  expect(within(dialog()).getByRole('button', { name: 'Done' })).toBeInTheDocument();
  // A browser that refuses the clipboard: the person is told to copy it by hand.
  writeText.mockRejectedValueOnce(new Error('denied'));
  await user.click(within(dialog()).getByRole('button', { name: 'Done' }));
  expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
    'The link could not be copied. Select it and copy it by hand.',
  );
});

test('the link settings: downloads, collect, device limit, each applied when chosen', async () => {
  const user = userEvent.setup();
  const { calls, dialog } = renderShare(albumOf(1, 'Trip', { link }));
  const downloads = within(dialog()).getByRole('switch', { name: 'Allow downloads' });
  expect(downloads).toBeChecked();
  await user.click(downloads);
  await waitFor(() => expect(downloads).not.toBeChecked());
  await user.click(within(dialog()).getByRole('switch', { name: 'Allow others to add photos' }));
  await user.selectOptions(within(dialog()).getByRole('combobox', { name: 'Device limit' }), 'Up to 5 devices');
  expect(calls).toEqual([
    ['updateLink', { enableDownload: false }],
    ['updateLink', { enableCollect: true }],
    ['updateLink', { deviceLimit: 5 }],
  ]);
});

test('the password: required, set (the field then empties), changed and removed', async () => {
  const user = userEvent.setup();
  const { calls, dialog } = renderShare(albumOf(1, 'Trip', { link }));
  expect(within(dialog()).getByText('The link has no password.')).toBeInTheDocument();
  await user.click(within(dialog()).getByRole('button', { name: 'Set password' }));
  const field = within(dialog()).getByLabelText('Password');
  expect(field).toHaveAccessibleDescription('Enter a password.');
  await user.type(field, 'open sesame{Enter}');
  expect(calls).toEqual([['updateLink', { password: 'open sesame' }]]);
  expect(await within(dialog()).findByText('The link asks for a password.')).toBeInTheDocument();
  expect(field).toHaveValue('');
  await user.click(within(dialog()).getByRole('button', { name: 'Remove password' }));
  expect(calls[1]).toEqual(['updateLink', { password: null }]);
  expect(await within(dialog()).findByRole('button', { name: 'Set password' })).toBeInTheDocument();
});

test('the expiry: a preset from now, or the end of a picked day; a past day is refused', async () => {
  const user = userEvent.setup();
  const { calls, dialog } = renderShare(albumOf(1, 'Trip', { link }));
  expect(within(dialog()).getByText('The link never expires.')).toBeInTheDocument();
  const expiry = within(dialog()).getByRole('combobox', { name: 'Link expires' });
  const before = Date.now();
  await user.selectOptions(expiry, 'In a week');
  const week = (calls[0]?.[1] as LinkChange).validTill ?? 0;
  expect(week / 1000 - before).toBeGreaterThanOrEqual(7 * 86_400_000);
  expect(week / 1000 - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
  expect(await within(dialog()).findByText(/^The link expires on /)).toBeInTheDocument();

  await user.selectOptions(expiry, 'On a date…');
  const day = within(dialog()).getByLabelText('Last day');
  await user.clear(day);
  await user.type(day, '2001-01-01');
  await user.click(within(dialog()).getByRole('button', { name: 'Set date' }));
  expect(day).toHaveAccessibleDescription('Choose a day from today on.');
  expect(calls).toHaveLength(1);
  await user.clear(day);
  await user.type(day, '2999-12-31');
  await user.click(within(dialog()).getByRole('button', { name: 'Set date' }));
  expect(calls[1]).toEqual(['updateLink', { validTill: new Date(2999, 11, 31, 23, 59, 59, 999).getTime() * 1000 }]);
});

test('removing the link asks first; a failed change says so and keeps the link', async () => {
  const user = userEvent.setup();
  let failing = false;
  const { calls, dialog } = renderShare(albumOf(1, 'Trip', { link }), () => (failing ? new Error('500') : undefined));
  failing = true;
  await user.click(within(dialog()).getByRole('button', { name: 'Remove link' }));
  await user.click(within(within(dialog()).getByRole('group')).getByRole('button', { name: 'Remove link' }));
  expect(await within(dialog()).findByRole('alert')).toHaveTextContent('That did not work. Please try again.');
  expect(within(dialog()).getByTestId('public-link-url')).toBeInTheDocument();
  failing = false;
  await user.click(within(within(dialog()).getByRole('group')).getByRole('button', { name: 'Remove link' }));
  expect(await within(dialog()).findByRole('button', { name: 'Create link' })).toBeInTheDocument();
  expect(calls).toEqual([['deleteLink'], ['deleteLink']]);
});

test('a link whose URL may not carry the key (not https) is shown as unavailable: no address, its settings kept', () => {
  const album = { ...albumOf(1, 'Trip'), link: { ...link, url: 'http://albums.example/?t=AB' } };
  renderInShell(
    <ShareDialog
      open
      album={album}
      linkURL={undefined}
      actions={{
        share: () => Promise.resolve(),
        unshare: () => Promise.resolve(),
        createLink: () => Promise.resolve(),
        updateLink: () => Promise.resolve(),
        deleteLink: () => Promise.resolve(),
      }}
      onClose={() => undefined}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Share “Trip”' });
  expect(within(dialog).getByText(/The server gave this link an address that is not secure/)).toBeInTheDocument();
  expect(within(dialog).queryByTestId('public-link-url')).not.toBeInTheDocument();
  expect(within(dialog).queryByRole('button', { name: 'Copy link' })).not.toBeInTheDocument();
  expect(within(dialog).queryByRole('button', { name: 'Create link' })).not.toBeInTheDocument();
  expect(within(dialog).getByRole('button', { name: 'Remove link' })).toBeInTheDocument();
});
