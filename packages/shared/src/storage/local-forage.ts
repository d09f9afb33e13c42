// The localforage databases of the registry (today `ente-files`, store `files`, where Photos will keep
// file data; docs/protocol.md#indexeddb). localforage is loaded on demand so that pages which never
// touch it do not ship it.
import type LocalForageModule from 'localforage';

type LocalForageStore = ReturnType<typeof LocalForageModule.createInstance>;

const stores = new Map<string, LocalForageStore>();

/** The store of a localforage place of the registry, e.g. `localforageStore(storageRegistry.files)`. */
export async function localforageStore(place: { database: string; objectStore: string }): Promise<LocalForageStore> {
  const name = `${place.database}/${place.objectStore}`;
  let store = stores.get(name);
  if (!store) {
    const { default: localforage } = await import('localforage');
    store = localforage.createInstance({ name: place.database, storeName: place.objectStore });
    stores.set(name, store);
  }
  return store;
}
