// What the viewer shows of a file, from the media loader (media/media.ts): the original's object URL (a HEIC
// the browser cannot show comes as a JPEG), the kept thumbnail meanwhile, a retry after a failure. A live
// photo's original is a small ZIP of its image and video (download/live-photo.ts reads it, fetched when first
// needed); their object URLs are revoked once the viewer moves on.
import { useEffect, useState } from 'react';

import { log } from '@ente/shared/log.ts';

import type { ViewerMedia } from '../components/PhotosView.tsx';
import { FileType, type GalleryFile } from '../library/types.ts';
import { typedBlob, videoTypeOf } from '../media/media-type.ts';
import { keptThumbnailURL, openOriginal, originalURL } from '../media/media.ts';

export interface Loaded {
  url: string;
  videoUrl?: string;
  /** Object URLs this hook made (a live photo's), revoked when the viewer moves on. */
  owned: string[];
}

/** The file's original as object URLs (a live photo's image and video), for the viewer and the slideshow. */
export async function loadOriginal(file: GalleryFile): Promise<Loaded> {
  if (file.metadata.fileType === FileType.livePhoto) {
    const { livePhotoFiles, readLivePhoto, refuseLargeLivePhoto } = await import('../download/live-photo.ts');
    // Refused before anything is fetched when the server already says it is too large.
    refuseLargeLivePhoto(file.fileSize);
    const zip = await readLivePhoto(await openOriginal(file), file.fileSize);
    const [image, video] = await livePhotoFiles(zip, file.metadata.title);
    if (!image || !video) throw new Error('a live photo without its parts');
    // Typed (media-type.ts): an uploader's bytes never open as a document of the app's origin.
    const url = URL.createObjectURL(await typedBlob(image.bytes));
    const videoUrl = URL.createObjectURL(await typedBlob(video.bytes, videoTypeOf(video.name)));
    return { url, videoUrl, owned: [url, videoUrl] };
  }
  const videoType = file.metadata.fileType === FileType.video ? videoTypeOf(file.metadata.title) : undefined;
  return { url: await originalURL(file, videoType), owned: [] };
}

export function useViewerMedia(file: GalleryFile | undefined): ViewerMedia {
  const identity = file ? `${file.id}:${file.fileHeader}` : undefined;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ identity: string; loaded?: Loaded; failed?: boolean }>();

  useEffect(() => {
    if (!file || !identity) return;
    let live = true;
    let made: string[] = [];
    loadOriginal(file).then(
      (loaded) => {
        made = loaded.owned;
        if (live) setState({ identity, loaded });
        else for (const url of made) URL.revokeObjectURL(url);
      },
      (error: unknown) => {
        log.warn('Could not open a file for the viewer', error);
        if (live) setState({ identity, failed: true });
      },
    );
    return () => {
      live = false;
      for (const url of made) URL.revokeObjectURL(url);
    };
    // The file's identity, not the object: a pull hands new objects of the same file.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [identity, attempt]);

  if (!file) return { source: { status: 'loading' } };
  const previewUrl = keptThumbnailURL(file);
  const current = state?.identity === identity ? state : undefined;
  if (current?.loaded) {
    const { url, videoUrl } = current.loaded;
    return { source: { status: 'ready', url, videoUrl }, previewUrl };
  }
  if (current?.failed) {
    return {
      source: {
        status: 'error',
        onRetry: () => {
          setState(undefined);
          setAttempt((n) => n + 1);
        },
      },
      previewUrl,
    };
  }
  return { source: { status: 'loading' }, previewUrl };
}
