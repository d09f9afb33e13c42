// The album of a public link once it opens (SharedAlbumPage.tsx fetches this module with import(), so that the
// password form and the failures load without it): the grid, the viewer and the downloads are the library pages'
// own (components/PhotosView, media/ pointed at the link's routes, download/), downloads offered only when the link
// allows them. The viewer comes when a photo opens (LazyViewer); the download code and the download panel (the
// signed-in pages' TabDownloads: progress, how each ended and why, Try again) when a download is asked for. The first
// screen draws its text and button with plain elements (Box, PlainButton, our own glyphs), not MUI's Typography,
// Button and icons, which would add MUI's ButtonBase and SvgIcon to every link's first load.
import Box from '@mui/material/Box';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { PageHeader } from '@ente/shared/components/PageHeader.tsx';
import { PlainButton } from '@ente/shared/components/PlainButton.tsx';
import { log } from '@ente/shared/log.ts';

import { EmptyState } from '../components/EmptyState.tsx';
import { DownloadGlyph } from '../components/glyphs.tsx';
import { PhotosView } from '../components/PhotosView.tsx';
import { selectedFiles } from '../components/selection/selection-model.ts';
import { useFailureNotice } from '../components/use-failure-notice.tsx';
import type { GalleryFile } from '../library/types.ts';
import type { PublicAlbumInfo } from '../public-album/public-album.ts';
import { lazyModule } from './lazy-module.ts';
import { LibraryThumbnail } from './thumbnail.ts';
import { useViewerMedia } from './use-viewer-media.ts';

/** The tab's downloads and their panel, fetched with the first download (or as the person heads for a button). */
const downloadCode = lazyModule(() =>
  Promise.all([import('../download/downloads.ts'), import('./TabDownloads.tsx')]).then(
    ([{ downloads }, { TabDownloads }]) => ({ downloads, TabDownloads }),
  ),
);

/** Starts fetching the download code as the person heads for a download button, so the click finds it ready. */
const prefetchDownloads = () => void downloadCode.load().catch(() => undefined);

/**
 * Saving the files picked (one original as it is, several as a ZIP named after the album), followed in the download
 * panel, which says how each ended and offers Try again; `save` is called from a click. The download code is fetched
 * first if it has not been (a local chunk: well within the click's activation, which the file picker needs); if it
 * cannot be, the page says so.
 */
function useAlbumDownloads(albumName: string) {
  const { t } = useTranslation('photos');
  const [Panel, setPanel] = useState(() => downloadCode.loaded()?.TabDownloads);
  const failures = useFailureNotice();
  const save = (files: readonly GalleryFile[]) =>
    failures.run(
      () =>
        downloadCode.load().then(
          ({ downloads, TabDownloads }) => {
            setPanel(() => TabDownloads);
            void downloads.start(files, albumName);
          },
          (error: unknown) => {
            log.error('Could not load the download code', error);
            throw error;
          },
        ),
      t('public_album.download_failed'),
    );
  return { save, panel: Panel && <Panel />, notice: failures.element };
}

function AlbumFrame({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <PageHeader />
      <Box component="main" sx={{ flex: 1, display: 'flex', flexDirection: 'column', px: { xs: 1, sm: 3 }, pt: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
          <Box component="h1" sx={{ typography: 'h5', m: 0, mr: 'auto', overflowWrap: 'anywhere' }}>
            {title}
          </Box>
          {actions}
        </Box>
        {children}
      </Box>
    </Box>
  );
}

export function AlbumView({ info, files }: { info: PublicAlbumInfo; files: readonly GalleryFile[] }) {
  const { t } = useTranslation('photos');
  const name = info.name === '' ? t('public_album.untitled') : info.name;
  const canDownload = info.enableDownload && files.length > 0;
  const downloads = useAlbumDownloads(name);
  return (
    <AlbumFrame
      title={name}
      actions={
        canDownload && (
          <PlainButton
            onPointerEnter={prefetchDownloads}
            onFocus={prefetchDownloads}
            onClick={() => downloads.save(files)}
          >
            <DownloadGlyph size="small" />
            {t('public_album.download_album')}
          </PlainButton>
        )
      }
    >
      {files.length === 0 ? (
        <EmptyState title={t('public_album.empty_title')} body={t('public_album.empty_body')} />
      ) : (
        <PhotosView
          files={files}
          albums={[]}
          Thumbnail={LibraryThumbnail}
          useViewerMedia={useViewerMedia}
          label={name}
          actions={canDownload ? { download: (ids) => downloads.save(selectedFiles(files, ids)) } : {}}
        />
      )}
      {downloads.panel}
      {downloads.notice}
    </AlbumFrame>
  );
}
