// The public album page's states over a fake album source: a wrong, disabled or expired link and a network
// failure said in words, the password asked and refused, the grid with download offered only when the link allows
// it. The media loader and the downloads are stand-ins (their own tests cover them).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import { fileAt } from '../components/testing/files.ts';
import { downloadOriginal, downloadZip } from '../download/download.ts';
import { downloads } from '../download/downloads.ts';
import type { GalleryFile } from '../library/types.ts';
import { MediaError } from '../media/errors.ts';
import { setMediaRoutes } from '../media/media.ts';
import { PublicAlbumError, type PublicAlbumErrorReason } from '../public-album/errors.ts';
import type { PublicLinkParts } from '../public-album/link.ts';
import type { PublicAlbum, PublicAlbumInfo } from '../public-album/public-album.ts';
import { SharedAlbumPage } from './SharedAlbumPage.tsx';

jest.mock('../media/media.ts', () => ({
  setMediaRoutes: jest.fn(),
  keptThumbnailURL: () => undefined,
  thumbnailURL: () => new Promise(() => undefined),
  originalURL: () => new Promise(() => undefined),
  openOriginal: () => new Promise(() => undefined),
}));
jest.mock('../download/download.ts', () => ({
  downloadZip: jest.fn(() => Promise.resolve()),
  downloadOriginal: jest.fn(() => Promise.resolve()),
}));

beforeAll(async () => {
  await loadNamespace('photos');
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
beforeEach(() => {
  jest.clearAllMocks();
  downloads.reset();
});

// A key of 32 bytes in base58 (all ones would be zero bytes: any 32-byte value will do for the fake).
const href = `https://photos.example/shared-albums?t=ABCDEFGHJK#${'2'.repeat(44)}`;
const files: GalleryFile[] = [1, 2, 3].map((id) => fileAt(id, new Date(2025, 5, id, 12)));
const routes = { objectURL: () => Promise.resolve('https://api.example/x'), cacheThumbnails: false };

interface FakeOptions {
  info?: Partial<PublicAlbumInfo>;
  infoFails?: PublicAlbumErrorReason[];
  files?: GalleryFile[];
  password?: string;
}

/** An album source whose answers the test sets; its calls recorded. */
function fakeAlbum(options: FakeOptions = {}) {
  const failures = [...(options.infoFails ?? [])];
  let unlocked = false;
  const calls = { links: [] as PublicLinkParts[], info: 0, unlock: [] as string[] };
  const album: PublicAlbum = {
    info() {
      calls.info++;
      const failure = failures.shift();
      if (failure) return Promise.reject(new PublicAlbumError(failure));
      return Promise.resolve({
        name: 'Summer',
        enableDownload: true,
        passwordEnabled: options.password !== undefined,
        ...options.info,
      });
    },
    unlock(password) {
      calls.unlock.push(password);
      unlocked = password === options.password;
      return unlocked ? Promise.resolve() : Promise.reject(new PublicAlbumError('wrongPassword'));
    },
    files() {
      if (options.password !== undefined && !unlocked) return Promise.reject(new PublicAlbumError('passwordRequired'));
      return Promise.resolve(options.files ?? files);
    },
    mediaRoutes: routes,
  };
  const openAlbum = (link: PublicLinkParts) => {
    calls.links.push(link);
    return album;
  };
  return { openAlbum, calls };
}

test.each([
  ['no key in the link', `https://photos.example/shared-albums?t=ABCDEFGHJK`, undefined],
  ['no token in the link', `https://photos.example/shared-albums#${'2'.repeat(44)}`, undefined],
  ['a key that does not open the album, or an unknown token', href, 'wrongLink'],
] as const)('%s: the page says the link is wrong', async (_case, address, failure) => {
  const fake = fakeAlbum({ infoFails: failure ? [failure] : [] });
  renderInShell(<SharedAlbumPage href={address} openAlbum={fake.openAlbum} />);
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('This link does not open an album');
  expect(screen.getByRole('alert')).toHaveTextContent('including the part after the # sign');
  expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  expect(fake.calls.links).toHaveLength(failure ? 1 : 0);
});

test.each([
  ['disabled', 'This link is no longer active', 'turned the link off'],
  ['expired', 'This link has expired', 'for a new link'],
  ['deviceLimit', 'This link cannot be opened on another device', 'as many devices'],
] as const)('%s: the page says so', async (reason, heading, body) => {
  renderInShell(<SharedAlbumPage href={href} openAlbum={fakeAlbum({ infoFails: [reason] }).openAlbum} />);
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(heading);
  expect(screen.getByRole('alert')).toHaveTextContent(body);
});

test('a network failure is said so, and Try again opens the album', async () => {
  const user = userEvent.setup();
  const fake = fakeAlbum({ infoFails: ['network'] });
  renderInShell(<SharedAlbumPage href={href} openAlbum={fake.openAlbum} />);
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Could not reach the server');
  await user.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Summer' })).toBeInTheDocument();
  expect(fake.calls.info).toBe(2);
});

test('an album without a password: the grid under its name, the media from the link’s routes, Download album', async () => {
  const user = userEvent.setup();
  const fake = fakeAlbum();
  renderInShell(<SharedAlbumPage href={href} openAlbum={fake.openAlbum} />);
  expect(await screen.findByRole('heading', { level: 1, name: 'Summer' })).toBeInTheDocument();
  expect(fake.calls.links).toEqual([
    { accessToken: 'ABCDEFGHJK', collectionKey: expect.any(String) as unknown as string },
  ]);
  expect(setMediaRoutes).toHaveBeenCalledWith(routes);
  const grid = screen.getByRole('grid', { name: 'Summer' });
  for (const id of [1, 2, 3]) expect(within(grid).getByRole('img', { name: `IMG_${id}.jpg` })).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: 'Download album' }));
  await waitFor(() => expect(downloadZip).toHaveBeenCalledWith(files, 'Summer', expect.anything()));
  // One picked file is saved as its original.
  await user.click(screen.getByRole('checkbox', { name: 'Select IMG_2.jpg' }));
  const bar = screen.getByRole('toolbar', { name: 'Selected items' });
  await user.click(within(bar).getByRole('button', { name: 'Download' }));
  await waitFor(() => expect(downloadOriginal).toHaveBeenCalledWith(files[1]!, expect.anything()));
  expect(within(bar).queryByRole('button', { name: 'Move to trash' })).not.toBeInTheDocument();
});

test('a link that does not allow downloads offers none', async () => {
  const user = userEvent.setup();
  renderInShell(<SharedAlbumPage href={href} openAlbum={fakeAlbum({ info: { enableDownload: false } }).openAlbum} />);
  expect(await screen.findByRole('heading', { level: 1, name: 'Summer' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Download album' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('checkbox', { name: 'Select IMG_2.jpg' }));
  const bar = screen.getByRole('toolbar', { name: 'Selected items' });
  expect(within(bar).queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();
});

test('a password link asks the password, refuses a wrong one, opens with the right one (by keyboard)', async () => {
  const user = userEvent.setup();
  const fake = fakeAlbum({ password: 'sesame' });
  renderInShell(<SharedAlbumPage href={href} openAlbum={fake.openAlbum} />);
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('This album is protected by a password');
  const field = screen.getByLabelText('Password');
  expect(field).toHaveFocus();
  expect(screen.getByRole('button', { name: 'Open album' })).toBeDisabled();
  await user.keyboard('wrong{Enter}');
  expect(await screen.findByRole('alert')).toHaveTextContent('That password is not right.');
  expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(field).toHaveAccessibleDescription('That password is not right.');
  // The refused password is selected: typing replaces it.
  await user.keyboard('sesame{Enter}');
  expect(await screen.findByRole('heading', { level: 1, name: 'Summer' })).toBeInTheDocument();
  expect(fake.calls.unlock).toEqual(['wrong', 'sesame']);
  expect(setMediaRoutes).toHaveBeenCalledWith(routes);
});

test('an empty album says so', async () => {
  renderInShell(<SharedAlbumPage href={href} openAlbum={fakeAlbum({ files: [] }).openAlbum} />);
  expect(await screen.findByText('This album is empty')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Download album' })).not.toBeInTheDocument();
});

test('leaving the page points the media loader back at the signed-in routes', async () => {
  const { unmount } = renderInShell(<SharedAlbumPage href={href} openAlbum={fakeAlbum().openAlbum} />);
  await screen.findByRole('heading', { level: 1, name: 'Summer' });
  unmount();
  await waitFor(() => expect(setMediaRoutes).toHaveBeenLastCalledWith(undefined));
});

test('a download that fails is said in the download panel, with why, and Try again downloads it again', async () => {
  const user = userEvent.setup();
  jest.mocked(downloadZip).mockRejectedValueOnce(new MediaError('network'));
  renderInShell(<SharedAlbumPage href={href} openAlbum={fakeAlbum().openAlbum} />);
  await screen.findByRole('heading', { level: 1, name: 'Summer' });
  // No download yet: no panel.
  expect(screen.queryByRole('region', { name: 'Downloads' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Download album' }));
  const panel = await screen.findByRole('region', { name: 'Downloads' });
  expect(await within(panel).findByText('Failed: no connection')).toBeInTheDocument();
  expect(within(panel).getByRole('heading', { name: 'Downloads ended — failed: 1' })).toBeInTheDocument();
  await user.click(within(panel).getByRole('button', { name: 'Try downloading Summer.zip again' }));
  expect(await within(panel).findByText('Downloaded')).toBeInTheDocument();
  expect(downloadZip).toHaveBeenCalledTimes(2);
  expect(jest.mocked(downloadZip).mock.calls[1]?.slice(0, 2)).toEqual([files, 'Summer']);

  // A selection of all three is saved as one ZIP of them, in the album's order, followed in the panel too.
  await user.click(screen.getByRole('checkbox', { name: 'Select IMG_1.jpg' }));
  await user.keyboard('{Control>}a{/Control}');
  const bar = screen.getByRole('toolbar', { name: 'Selected items' });
  expect(bar).toHaveTextContent('3 selected');
  await user.click(within(bar).getByRole('button', { name: 'Download' }));
  await waitFor(() => expect(downloadZip).toHaveBeenCalledTimes(3));
  expect(jest.mocked(downloadZip).mock.calls[2]?.[0]).toEqual(files);
});
