// The /shared-albums route: without a link it says so from its own first load, with the album's code never
// fetched; with one it loads the album page (a stand-in here) and sends nobody to /login.
import { act, screen } from '@testing-library/react';

import { loadNamespace } from '@ente/shared/i18n/i18n.ts';
import { fakeRouter } from '@ente/shared/testing/fake-router.ts';
import { renderInShell } from '@ente/shared/testing/render-in-shell.tsx';

import Page from '../pages/shared-albums.tsx';

const router = fakeRouter('/shared-albums');
jest.mock('next/router', () => ({ useRouter: () => router }));
const albumPageLoaded = jest.fn();
jest.mock('./SharedAlbumPage.tsx', () => {
  albumPageLoaded();
  return { SharedAlbumPage: ({ href }: { href: string }) => <h1>The album page of {new URL(href).hash}</h1> };
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
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(`The album page of #${'2'.repeat(44)}`);
  expect(albumPageLoaded).toHaveBeenCalled();
  expect(router.replace).not.toHaveBeenCalled();
});

test('another link pasted into the tab (only the fragment changes) opens afresh; one without a key says so', async () => {
  window.history.replaceState(null, '', `/shared-albums?t=ABCDEFGHJK#${'2'.repeat(44)}`);
  renderInShell(<Page />);
  await screen.findByRole('heading', { level: 1, name: `The album page of #${'2'.repeat(44)}` });
  act(() => {
    window.history.replaceState(null, '', `/shared-albums?t=ABCDEFGHJK#${'3'.repeat(44)}`);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(`The album page of #${'3'.repeat(44)}`);
  act(() => {
    window.history.replaceState(null, '', '/shared-albums?t=ABCDEFGHJK');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('This link does not open an album');
});
