// The tab's downloads (downloads.ts) in a React component: re-renders on each change of their snapshot.
import { useSyncExternalStore } from 'react';

import { downloads, type DownloadTask } from './downloads.ts';

export function useDownloads(): readonly DownloadTask[] {
  return useSyncExternalStore(downloads.subscribe, downloads.snapshot, downloads.snapshot);
}
