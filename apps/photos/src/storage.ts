// What the photos app keeps in the browser beyond the shell's declaration (packages/shared/src/storage/
// registry.ts), handed to the shell by `createApp({ storage })` so that logout clears it: the places of
// docs/protocol.md#indexeddb and #caches where Photos keeps file data: `thumbs` holds our encrypted thumbnails
// (media/); a browser that ran Ente's photos app on this origin may hold the others, and logout leaves nothing
// behind. The upload's OPFS staging is not a place the registry knows: its logout sweep is registered below, so
// that it runs from any page, whether or not the tab loaded the upload code.
// See: [Note: Storage registry]
import { registerInMemoryReset } from '@ente/shared/storage/in-memory.ts';
import type { AppStorage } from '@ente/shared/storage/registry.ts';

/**
 * The library's cache (library/library-cache.ts): the collections, files and trash entries as the server sent
 * them (keys, names and metadata still encrypted) and the cursors of their diffs.
 */
export const photosLibraryDB = { kind: 'idb', database: 'ente-photos-library', clearedOnLogout: true } as const;

/**
 * The records of queued uploads (upload/pending-uploads.ts): album ids, sizes and times, and the browser's file
 * handles of dropped files, so that an upload resumes after a reload; no key, no file content.
 */
export const photosPendingUploadsDB = { kind: 'idb', database: 'ente-photos-uploads', clearedOnLogout: true } as const;

export const photosStorage: AppStorage = {
  places: [
    photosLibraryDB,
    photosPendingUploadsDB,
    { kind: 'localforage', database: 'ente-files', objectStore: 'files', clearedOnLogout: true },
    { kind: 'cache', cache: 'thumbs', clearedOnLogout: true },
    { kind: 'cache', cache: 'face-crops', clearedOnLogout: true },
    { kind: 'cache', cache: 'files', clearedOnLogout: true },
  ],
};

// Fetched at logout only (the first load stays as it was): cancels the running uploads, then removes the staging.
registerInMemoryReset('photos-upload-staging', async () => {
  const { sweepUploadsAtLogout } = await import('./upload/staging-sweep.ts');
  await sweepUploadsAtLogout();
});
