// /deduplicate once the visitor is signed in (pages/deduplicate.tsx loads it with import()): the groups of the
// user's identical files (dedup/duplicates.ts) in the deduplicate view; removing runs the plan with the
// library's writes, each kept file added to the others' albums before they go to the trash.
import { useEffect, useMemo, useState } from 'react';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { log } from '@ente/shared/log.ts';
import { savedUserID } from '@ente/shared/storage/user.ts';

import { DedupView } from '../components/dedup/DedupView.tsx';
import { PhotosLayout } from '../components/layout/PhotosLayout.tsx';
import { dedupPlan, duplicateGroups, type DuplicateGroup } from '../dedup/duplicates.ts';
import { useLibrary, type Library } from '../library/use-library.ts';
import { LibraryThumbnail } from './thumbnail.ts';

/** Carries out the plan of `groups` in order (additions first, then one trash). */
export async function removeDuplicates(library: Library, groups: readonly DuplicateGroup[]): Promise<void> {
  for (const request of dedupPlan(groups, library.snapshot().albums)) {
    if (request.kind === 'add-files') await library.addToAlbum(request.albumID, request.files);
    else await library.trashFiles(request.files);
  }
}

export function DeduplicatePage() {
  const { library, snapshot, error } = useLibrary();
  const [userID, setUserID] = useState<number>();
  useEffect(() => {
    void savedUserID().then(setUserID);
  }, []);
  const groups = useMemo(
    () => (userID === undefined ? [] : duplicateGroups(snapshot.files, userID, snapshot.albums)),
    [snapshot.files, snapshot.albums, userID],
  );
  if (error) throw error instanceof Error ? error : new Error('the library could not open', { cause: error });
  if (!library || userID === undefined || snapshot.status === 'loading') return <LoadingOverlay />;
  return (
    <PhotosLayout section="deduplicate">
      <DedupView
        groups={groups}
        Thumbnail={LibraryThumbnail}
        onRemove={(chosen) =>
          removeDuplicates(library, chosen).catch((e: unknown) => {
            log.error('Could not remove the duplicates', e);
            throw e;
          })
        }
      />
    </PhotosLayout>
  );
}
