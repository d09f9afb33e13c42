// The slideshow of the gallery's views: `useSlideshow()` holds which files a show plays (an album's, a selection's)
// and gives the show's element (its code fetched when first started, components/slideshow/LazySlideshow.tsx);
// `SlideshowButton` starts an album's from the page's toolbar. A slide is the file's original as the viewer has it
// (use-viewer-media.ts: a HEIC the browser cannot show comes as a JPEG), of a live photo its image only (the
// video's URL freed at once); videos are not part of a show.
import SlideshowIcon from '@mui/icons-material/SlideshowOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { enterFullScreen, LazySlideshow, type Slide } from '../components/slideshow/LazySlideshow.tsx';
import { FileType, type GalleryFile } from '../library/types.ts';
import { loadOriginal } from './use-viewer-media.ts';

export async function loadSlide(file: GalleryFile): Promise<Slide> {
  const { url, videoUrl, owned } = await loadOriginal(file);
  if (videoUrl) URL.revokeObjectURL(videoUrl);
  return { url, release: () => owned.forEach((each) => URL.revokeObjectURL(each)) };
}

export function useSlideshow() {
  const [files, setFiles] = useState<readonly GalleryFile[]>();
  /** From the person's click: full screen is asked for then (it needs the gesture). */
  const start = (chosen: readonly GalleryFile[]) => {
    enterFullScreen();
    setFiles(chosen);
  };
  const element = (
    <LazySlideshow
      open={files !== undefined}
      files={files ?? []}
      loadSlide={loadSlide}
      onClose={() => setFiles(undefined)}
    />
  );
  return { start, element };
}

/** The toolbar's Slideshow button, when `files` hold a photo to show. */
export function SlideshowButton({ files, onStart }: { files: readonly GalleryFile[]; onStart: () => void }) {
  const { t } = useTranslation('photos');
  if (!files.some((file) => file.metadata.fileType !== FileType.video)) return null;
  return (
    <Button startIcon={<SlideshowIcon />} onClick={onStart}>
      {t('slideshow.start')}
    </Button>
  );
}
