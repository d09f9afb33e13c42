// The library in React: `useLibrary()` opens (or joins) this tab's library and re-renders when it changes.
// The library's code (idb, the schemas, the sync) comes with import() on first use, so a page that uses the
// hook does not carry it in its first load.
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';

import type { Library, LibrarySnapshot } from './library.ts';

export type { Library, LibrarySnapshot, LinkChanges } from './library.ts';
export { filesOfAlbum, newestFirst, takenAt, timelineFiles } from './order.ts';
export { shareableLink } from './link-url.ts';

/** What a page shows before the library has opened. */
const notOpenYet: LibrarySnapshot = {
  albums: [],
  hiddenAlbums: [],
  files: [],
  trash: [],
  status: 'loading',
  syncing: false,
  offline: false,
  failed: false,
};

export interface UseLibrary {
  /** The library, once open (its writes: createAlbum, trashFiles, …). */
  library: Library | undefined;
  snapshot: LibrarySnapshot;
  /** Why it could not open (a LibraryError 'notSignedIn' or 'locked', or a failure to load its code). */
  error: unknown;
}

export function useLibrary(): UseLibrary {
  const [opened, setOpened] = useState<{ library?: Library; error?: unknown }>({});
  useEffect(() => {
    let current = true;
    import('./library.ts')
      .then((module) => module.libraryOfThisTab())
      .then(
        (library) => current && setOpened({ library }),
        (error: unknown) => current && setOpened({ error }),
      );
    return () => {
      current = false;
    };
  }, []);
  const { library } = opened;
  const subscribe = useCallback((listener: () => void) => library?.subscribe(listener) ?? (() => undefined), [library]);
  const snapshot = useCallback(() => library?.snapshot() ?? notOpenYet, [library]);
  return { library, snapshot: useSyncExternalStore(subscribe, snapshot, snapshot), error: opened.error };
}
