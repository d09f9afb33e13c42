// /gallery once the visitor is signed in (pages/gallery.tsx loads this module with import()): the library
// (useLibrary) wired to the components' views — the photos by day, an album's photos, the album list, the albums
// shared with the user, the trash — with the upload button, the page drop and the upload panel (use-uploads.ts),
// the viewer's media (use-viewer-media.ts) and downloads (download/). The components hold the UI state; this
// module turns what the person did into the library's writes.
import CastIcon from '@mui/icons-material/CastOutlined';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import LeaveIcon from '@mui/icons-material/LogoutOutlined';
import ShareIcon from '@mui/icons-material/ShareOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useRouter } from 'next/router';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingOverlay } from '@ente/shared/components/LoadingOverlay.tsx';
import { log } from '@ente/shared/log.ts';

import { useAlbumTitle } from '../components/albums/album-title.ts';
import { AlbumsView } from '../components/albums/AlbumsView.tsx';
import { AlbumCast } from '../components/cast/AlbumCast.tsx';
import { cornerAlertSx } from '../components/corner-alert.ts';
import { PhotosLayout } from '../components/layout/PhotosLayout.tsx';
import { sectionOfView } from '../components/layout/sections.ts';
import { PhotosView } from '../components/PhotosView.tsx';
import { selectedFiles } from '../components/selection/selection-model.ts';
import { AlbumSharing, type SharingDialog } from '../components/share/AlbumSharing.tsx';
import type { AlbumSharingActions } from '../components/share/share-types.ts';
import { TrashView } from '../components/trash/TrashView.tsx';
import { UploadPanel } from '../components/upload-panel/UploadPanel.tsx';
import { UploadPrompts } from '../components/upload-panel/UploadPrompts.tsx';
import { downloads } from '../download/downloads.ts';
import type { Album, GalleryFile } from '../library/types.ts';
import { filesOfAlbum, shareableLink, timelineFiles, useLibrary, type Library } from '../library/use-library.ts';
import { startMediaWorker } from '../media/media.ts';
import type { UploadQueue } from '../upload/uploader.ts';
import { useUploadQueue } from '../upload/use-upload-queue.ts';
import { castActions, castPageURL } from './cast-actions.ts';
import { restoreFromTrash } from './restore-from-trash.ts';
import { TabDownloads } from './TabDownloads.tsx';
import { LibraryThumbnail } from './thumbnail.ts';
import { SlideshowButton, useSlideshow } from './use-slideshow.tsx';
import { takesUploads, useUploads } from './use-uploads.ts';
import { useViewerMedia } from './use-viewer-media.ts';

// The thumbnails' worker boots while the library opens from its cache (bench/photos-app.mjs, first thumbnails).
startMediaWorker();

/** `promise`, its failure logged (the dialog that called says it failed; the log says why). */
function logged<T>(what: string, promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    log.error(`Could not ${what}`, error);
    throw error;
  });
}

/**
 * Saves files: one original as it is, several (or an album) as one ZIP, followed in the download panel (which says
 * how it ended). Called from the person's click.
 */
export function saveFiles(files: readonly GalleryFile[], zipName: string): void {
  void downloads.start(files, zipName);
}

/** Albums files can be added or moved to: the user's own and those they collaborate on. */
const writable = (albums: readonly Album[]) => albums.filter(takesUploads);

/** Sharing through the library: each write resolves once the library shows it (the dialogs show the result). */
function sharingActions(library: Library): AlbumSharingActions {
  return {
    // A share's failure (an address without an account, say) is the dialog's to say; it is not logged.
    share: (album, email, role) => library.shareAlbum(album.id, email, role),
    unshare: (album, email) => logged('stop sharing an album', library.unshareAlbum(album.id, email)),
    leave: (album) => logged('leave an album', library.leaveAlbum(album.id)),
    createLink: (album) => logged('create a public link', library.createLink(album.id)),
    updateLink: (album, change) => logged('change a public link', library.updateLink(album.id, change)),
    deleteLink: (album) => logged('remove a public link', library.deleteLink(album.id)),
    linkURL: (album) => album.link && shareableLink(album.link.url, album.key),
  };
}

/** A new album, as the library shows it once created. */
async function createdAlbum(library: Library, name: string): Promise<Album> {
  const id = await library.createAlbum(name);
  const album = library.snapshot().albums.find((each) => each.id === id);
  if (!album) throw new Error('the new album is not in the library');
  return album;
}

export function GalleryPage() {
  const router = useRouter();
  const { t } = useTranslation('photos');
  const albumTitle = useAlbumTitle();
  const { library, snapshot, error } = useLibrary();
  const uploads = useUploads(library);
  const slideshow = useSlideshow();
  const [sharingDialog, setSharingDialog] = useState<SharingDialog>();
  const [castAlbumID, setCastAlbumID] = useState<number>();
  /** How many files of the last trashed selection were others' and stayed (0: none, or told already). */
  const [trashLeftOut, setTrashLeftOut] = useState(0);
  const section = sectionOfView(router.query.view);
  const albumParam = typeof router.query.album === 'string' ? Number(router.query.album) : undefined;
  // An album's view is under the section that lists it: Albums for the user's own, Shared with me for others'.
  const listed = section === 'albums' || section === 'shared';
  const album = listed ? snapshot.albums.find((each) => each.id === albumParam) : undefined;
  const viewOnly = album !== undefined && !takesUploads(album);
  // Made again only when the files or albums changed (the snapshot keeps them while only its status changes), so
  // that the grid keeps its days and rows.
  const { files: allFiles, albums: allAlbums } = snapshot;
  const visible = useMemo(() => timelineFiles({ files: allFiles, albums: allAlbums }), [allFiles, allAlbums]);
  const albumFiles = useMemo(() => (album ? filesOfAlbum({ files: allFiles }, album.id) : []), [allFiles, album]);

  // An album that is gone (deleted here or elsewhere) leaves its view for the album list.
  const missingAlbum = albumParam !== undefined && listed && snapshot.status === 'ready' && !album;
  useEffect(() => {
    if (missingAlbum) void router.replace(`/gallery?view=${section}`);
  }, [missingAlbum, router, section]);

  if (error) {
    // A tab that lost its key since the page loaded signs in again; anything else is the shell's to report.
    if ((error as { reason?: unknown }).reason === 'locked') void router.replace('/credentials');
    else throw error instanceof Error ? error : new Error('the library could not open', { cause: error });
  }
  if (!library || (snapshot.status === 'loading' && snapshot.files.length === 0)) return <LoadingOverlay />;

  // The files of `ids` as the library has them (a file gone meanwhile is left out).
  const selected = (ids: readonly number[]) => selectedFiles(library.snapshot().files, ids);
  const openAlbum = (target: Album) =>
    void router.push(`/gallery?view=${target.role === 'OWNER' ? 'albums' : 'shared'}&album=${target.id}`);
  const albumActions = {
    createAlbum: (name: string) => logged('create an album', createdAlbum(library, name)),
    renameAlbum: (target: Album, name: string) => logged('rename an album', library.renameAlbum(target.id, name)),
    deleteAlbum: (target: Album, keepFiles: boolean) =>
      logged('delete an album', library.deleteAlbum(target.id, { keepFiles })),
  };
  const sharing = sharingActions(library);
  const fileActions = {
    createAlbum: albumActions.createAlbum,
    addToAlbum: (to: Album, ids: readonly number[]) =>
      logged('add to an album', library.addToAlbum(to.id, selected(ids))),
    // Only the user's own files can go to the trash; the others of a selection stay, and the page says how many.
    trash: (ids: readonly number[]) =>
      logged('trash files', library.trashOwnFiles(selected(ids))).then(({ leftOut }) => setTrashLeftOut(leftOut)),
    download: (ids: readonly number[]) => saveFiles(selected(ids), t('nav.photos')),
    slideshow: (ids: readonly number[]) => slideshow.start(selected(ids)),
  };

  let content;
  if (album) {
    const own = album.role === 'OWNER';
    content = (
      <PhotosView
        key={album.id}
        files={albumFiles}
        album={album}
        albums={writable(snapshot.albums).filter((each) => each.id !== album.id)}
        Thumbnail={LibraryThumbnail}
        useViewerMedia={useViewerMedia}
        label={albumTitle(album)}
        actions={{
          ...fileActions,
          // A selection's ZIP is named after the album it was chosen in.
          download: (ids: readonly number[]) => saveFiles(selected(ids), albumTitle(album)),
          // A viewer of an album shared with them has nothing of theirs in it to trash.
          trash: album.role === 'VIEWER' ? undefined : fileActions.trash,
          moveToAlbum: own
            ? (from: Album, to: Album, ids: readonly number[]) =>
                logged('move files', library.moveToAlbum(from.id, to.id, selected(ids)))
            : undefined,
          removeFromAlbum: own
            ? (from: Album, ids: readonly number[]) =>
                logged('remove files from an album', library.takeOutOfAlbum(from.id, ids))
            : undefined,
        }}
      />
    );
  } else if (listed) {
    const mine = section === 'albums';
    content = (
      <AlbumsView
        key={section}
        albums={snapshot.albums.filter((each) => (each.role === 'OWNER') === mine)}
        files={snapshot.files}
        Thumbnail={LibraryThumbnail}
        onOpen={openAlbum}
        actions={mine ? albumActions : {}}
        sharing={sharing}
        onCast={(target) => setCastAlbumID(target.id)}
      />
    );
  } else if (section === 'trash') {
    content = (
      <TrashView
        trash={snapshot.trash}
        Thumbnail={LibraryThumbnail}
        useViewerMedia={useViewerMedia}
        actions={{
          restore: (ids) => logged('restore files', restoreFromTrash(library, ids)),
          deleteForever: (ids) => logged('delete files for ever', library.deleteForever(ids)),
          emptyTrash: () => logged('empty the trash', library.emptyTrash()),
        }}
      />
    );
  } else {
    content = (
      <PhotosView
        key="photos"
        files={visible}
        albums={writable(snapshot.albums)}
        Thumbnail={LibraryThumbnail}
        useViewerMedia={useViewerMedia}
        actions={fileActions}
      />
    );
  }

  return (
    <PhotosLayout
      section={section}
      title={album && albumTitle(album)}
      // An album shared to view only takes no files: a drop there is refused with the reason (docs/decisions.md).
      onFiles={section === 'trash' || viewOnly ? undefined : (picked) => uploads.upload(picked, album)}
      dropRefusal={viewOnly ? t('upload_problem.view_only', { name: albumTitle(album) }) : undefined}
      actions={
        album && (
          <>
            {albumFiles.length > 0 && (
              <Button startIcon={<DownloadIcon />} onClick={() => saveFiles(albumFiles, albumTitle(album))}>
                {t('selection.download')}
              </Button>
            )}
            <SlideshowButton files={albumFiles} onStart={() => slideshow.start(albumFiles)} />
            <Button startIcon={<CastIcon />} onClick={() => setCastAlbumID(album.id)}>
              {t('cast.open')}
            </Button>
            {/* An album of the user's own is shared; one shared with them can be left ("uncategorized" neither). */}
            {album.type !== 'uncategorized' &&
              (album.role === 'OWNER' ? (
                <Button
                  startIcon={<ShareIcon />}
                  onClick={() => setSharingDialog({ kind: 'share', albumID: album.id })}
                >
                  {t('share.open')}
                </Button>
              ) : (
                <Button
                  startIcon={<LeaveIcon />}
                  onClick={() => setSharingDialog({ kind: 'leave', albumID: album.id })}
                >
                  {t('share.leave')}
                </Button>
              ))}
          </>
        )
      }
    >
      {content}
      <AlbumSharing
        dialog={sharingDialog}
        albums={snapshot.albums}
        actions={sharing}
        onClose={() => setSharingDialog(undefined)}
      />
      <AlbumCast
        albumID={castAlbumID}
        albums={snapshot.albums}
        castPageURL={castPageURL}
        actions={castActions}
        onClose={() => setCastAlbumID(undefined)}
      />
      {uploads.queue && <Uploads queue={uploads.queue} />}
      <TabDownloads />
      {trashLeftOut > 0 && (
        <Alert severity="info" onClose={() => setTrashLeftOut(0)} sx={cornerAlertSx('top', 'right')}>
          {t('trash_selection.left_out', { count: trashLeftOut })}
        </Alert>
      )}
      {slideshow.element}
      <UploadPrompts nested={uploads.nestedChoice} left={uploads.left} failed={uploads.failed} />
    </PhotosLayout>
  );
}

function Uploads({ queue }: { queue: UploadQueue }) {
  const snapshot = useUploadQueue(queue);
  return (
    <UploadPanel
      snapshot={snapshot}
      onCancel={(id) => queue.cancel(id)}
      onCancelAll={() => queue.cancelAll()}
      onRetry={(id) => queue.retry(id)}
      onRetryFailed={() => queue.retryFailed()}
      onClearFinished={() => queue.clearFinished()}
    />
  );
}
