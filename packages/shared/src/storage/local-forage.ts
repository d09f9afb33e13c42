// The localforage database `ente-files` (store `files`, protocol §10.2) where Photos keeps file data.
// Logout clears it. localforage is loaded on demand so that pages which never touch it do not ship it.
import type LocalForageModule from 'localforage';

type LocalForageStore = ReturnType<typeof LocalForageModule.createInstance>;

let store: LocalForageStore | undefined;

export async function filesStore(): Promise<LocalForageStore> {
  if (!store) {
    const { default: localforage } = await import('localforage');
    store = localforage.createInstance({ name: 'ente-files', storeName: 'files' });
  }
  return store;
}
