// The logout's sweep of the upload's staging (ciphertext in the Origin Private File System, staging.ts): the
// running uploads are cancelled first (each queue registers how, uploader.ts), then the whole staging directory
// goes, retried briefly while the ended workers' handles close. The app shell registers it at logout
// (../storage.ts, through a dynamic import: nothing of it is in the first load), so that a logout also removes
// what an upload of a closed tab left, in a tab that never loaded the upload code. Works wherever OPFS does;
// a browser without it has nothing to remove.

export const STAGING_DIRECTORY = 'ente-upload-staging';

/** The part of an OPFS directory handle the staging uses (TypeScript's DOM library lacks some of it). */
export interface StagingDirectory {
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<StagingDirectory>;
  getFileHandle(
    name: string,
    options?: { create?: boolean },
  ): Promise<{
    createSyncAccessHandle(): Promise<unknown>;
  }>;
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>;
  keys(): AsyncIterable<string>;
}

/** The OPFS root; undefined in insecure contexts, older browsers and the private windows that refuse it. */
export async function opfsRoot(): Promise<StagingDirectory | undefined> {
  const storage = typeof navigator === 'undefined' ? undefined : (navigator as { storage?: StorageManager }).storage;
  if (typeof storage?.getDirectory !== 'function') return undefined;
  try {
    return (await storage.getDirectory()) as unknown as StagingDirectory;
  } catch {
    return undefined;
  }
}

/** Removes the whole staging directory, retried while workers just ended still hold a file of it. */
export async function removeAllStaging(): Promise<void> {
  const root = await opfsRoot();
  if (!root) return;
  for (let attempt = 0; ; attempt++) {
    try {
      await root.removeEntry(STAGING_DIRECTORY, { recursive: true });
      return;
    } catch (e) {
      if ((e as { name?: string }).name === 'NotFoundError' || attempt >= 5) return;
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    }
  }
}

const cancellers = new Set<() => void>();

/** Registers how to cancel a queue's uploads and end its workers at logout; returns how to unregister it. */
export function cancelAtLogout(cancel: () => void): () => void {
  cancellers.add(cancel);
  return () => void cancellers.delete(cancel);
}

/** Logout: every upload cancelled, then the staging removed. */
export async function sweepUploadsAtLogout(): Promise<void> {
  for (const cancel of [...cancellers]) cancel();
  cancellers.clear();
  await removeAllStaging();
}
