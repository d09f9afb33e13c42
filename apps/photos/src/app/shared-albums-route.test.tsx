// The /shared-albums route: without a link it says so from its own first load, with the album's code never
// fetched; with one it loads the album page (a stand-in here) and sends nobody to /login.
import { screen } from '@testing-library/react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { fakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import Page from '../pages/shared-albums.tsx';

const router = fakeRouter('/shared-albums');
jest.mock('next/router', () => ({ useRouter: () => router }));
const albumPageLoaded = jest.fn();
jest.mock('./SharedAlbumPage.tsx', () => {
  albumPageLoaded();
  return { SharedAlbumPage: () => <h1>The album page</h1> };
});

beforeAll(() => loadNamespace('photos'));

test('a visit without a link is told the link is wrong, without the album’s code', async () => {
  window.history.replaceState(null, '', '/shared-albums');
  renderInShell(<Page />);
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('This link does not open an album');
  expect(albumPageLoaded).not.toHaveBeenCalled();
  expect(router.replace).not.toHaveBeenCalled();
});

test('a visit with a link loads the album page', async () => {
  window.history.replaceState(null, '', `/shared-albums?t=ABCDEFGHJK#${'2'.repeat(44)}`);
  renderInShell(<Page />);
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('The album page');
  expect(albumPageLoaded).toHaveBeenCalled();
  expect(router.replace).not.toHaveBeenCalled();
});
