// The localforage databases an app declares (today Photos' `ente-files`, store `files`, where it will keep
// file data; docs/protocol.md#indexeddb). localforage is loaded on demand so that pages which never
// touch it do not ship it.
import type LocalForageModule from 'localforage';

type LocalForageStore = ReturnType<typeof LocalForageModule.createInstance>;

const stores = new Map<string, LocalForageStore>();

/** The store of a localforage place an app declares (apps/photos/src/storage.ts). */
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

/**
 * Deletes the whole database of a localforage place (logout): a cleared but existing database would
 * still show up in the browser as one the app left behind. A store opened in this tab is dropped
 * through localforage, which closes its connection first; otherwise the database is deleted directly,
 * without loading localforage. Deletion waits for other tabs to close their connections, so a
 * blocked request is left to finish in the background rather than holding up logout.
 */
export async function deleteLocalforageDatabase(place: { database: string; objectStore: string }): Promise<void> {
  const name = `${place.database}/${place.objectStore}`;
  const store = stores.get(name);
  if (store) {
    stores.delete(name);
    await store.dropInstance({ name: place.database });
    return;
  }
  if (typeof indexedDB === 'undefined') return;
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(place.database);
    request.onsuccess = () => {
      resolve();
    };
    request.onblocked = () => {
      resolve();
    };
    request.onerror = () => {
      reject(request.error ?? new Error(`could not delete the database ${place.database}`));
    };
  });
}
