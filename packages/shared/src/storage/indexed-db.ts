// Deleting a whole IndexedDB database of the registry (logout). A database whose module keeps a
// connection open must close it when it sees a `versionchange` (idb's `blocking` callback), or the
// deletion waits for it; a deletion still blocked by another tab is left to finish in the background.

/** Deletes the database `name`; resolves once it is gone or the deletion waits on another tab. */
export function deleteIndexedDatabase(name: string): Promise<void> {
  if (typeof indexedDB === 'undefined') return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onblocked = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`could not delete the database ${name}`));
  });
}
