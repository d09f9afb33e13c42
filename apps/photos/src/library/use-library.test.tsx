// useLibrary in React (jsdom): the empty loading snapshot first, then this tab's library and its changes; the
// reason when it cannot open.
import 'fake-indexeddb/auto';

import { act, renderHook, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';

import { cryptoWorker, type CryptoRemote } from '@ente/crypto/client.ts';
import { deleteKVDatabase } from '@ente/shared/storage/kv.ts';
import { removeSavedUser } from '@ente/shared/storage/local-storage.ts';

import { LibraryError } from './errors.ts';
import { fakeEmail, FakePhotosServer, fakeUserID } from './testing/fake-photos-server.ts';
import { signIn, signOut } from './testing/signed-in.ts';
import { useLibrary } from './use-library.ts';

const msw = setupServer();
let fake: FakePhotosServer;
let crypto: CryptoRemote;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'error' });
  crypto = await cryptoWorker();
});
beforeEach(() => {
  fake = new FakePhotosServer();
  msw.resetHandlers(...fake.handlers);
});
afterEach(signOut);
afterAll(() => msw.close());

test('loading at first, then the albums; a write shows at once in the component', async () => {
  const { masterKey } = await signIn(crypto);
  const { key: _key, ...fields } = await crypto.newCollectionKeys('Holidays', masterKey);
  fake.putCollection({
    ...fields,
    id: fake.id(),
    owner: { id: fakeUserID, email: fakeEmail, name: '', role: 'OWNER' },
    name: '',
    type: 'album',
    attributes: { version: 0 },
    sharees: [],
    publicURLs: [],
    app: 'photos',
  });
  const { result } = renderHook(() => useLibrary());
  expect(result.current.snapshot).toMatchObject({ status: 'loading', albums: [] });
  // The albums can show before the first sync has ended (the status turns ready after its last page).
  await waitFor(() => expect(result.current.snapshot.status).toBe('ready'));
  expect(result.current.snapshot.albums.map((album) => album.name)).toEqual(['Holidays']);

  await act(async () => {
    await result.current.library?.createAlbum('Trip');
  });
  expect(result.current.snapshot.albums.map((album) => album.name)).toEqual(['Trip', 'Holidays']);
});

test('signed out: the reason, and no library', async () => {
  await removeSavedUser();
  await deleteKVDatabase();
  const { result } = renderHook(() => useLibrary());
  await waitFor(() => expect(result.current.error).toEqual(new LibraryError('notSignedIn')));
  expect(result.current.library).toBeUndefined();
});
