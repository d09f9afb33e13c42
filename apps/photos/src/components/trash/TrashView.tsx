// The trash: the trashed files in the grid (by the day they were taken), each saying how many days it has left
// before the server deletes it for ever (30 days after it was trashed), restore or delete for ever of a
// selection, empty the whole trash, and the viewer (without a trash action: the file is there already). Like
// PhotosView, it holds UI state only; the trash and its writes come from the page.
import DeleteSweepIcon from '@mui/icons-material/DeleteSweepOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { createContext, lazy, Suspense, useContext, useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import type { TrashedFile } from '../../library/types.ts';
import { EmptyState } from '../EmptyState.tsx';
import { GalleryGrid } from '../gallery/GalleryGrid.tsx';
import { PlaceholderThumbnail, type ThumbnailProps } from '../gallery/Thumbnail.tsx';
import { SelectionBar } from '../selection/SelectionBar.tsx';
import { useViewSelection } from '../selection/use-view-selection.ts';
import { useFailureNotice } from '../use-failure-notice.tsx';
import { LazyViewer } from '../viewer/LazyViewer.tsx';
import { useViewerFile, type UseViewerMedia } from '../viewer/use-viewer-file.ts';

const ConfirmDialog = lazy(() => import('../ConfirmDialog.tsx').then((m) => ({ default: m.ConfirmDialog })));

/** The page's writes on the trash; each resolves once done. An action not given is not offered. */
export interface TrashViewActions {
  restore?: (fileIDs: readonly number[]) => Promise<unknown>;
  deleteForever?: (fileIDs: readonly number[]) => Promise<unknown>;
  emptyTrash?: () => Promise<unknown>;
}

export interface TrashViewProps {
  trash: readonly TrashedFile[];
  /** The grid's thumbnails (see `thumbnailFromHook`); placeholders unless given. */
  Thumbnail?: ComponentType<ThumbnailProps>;
  /** The media loader's hook for the file the viewer shows. */
  useViewerMedia: UseViewerMedia;
  actions: TrashViewActions;
  /** The clock for the days left (ms); the time of the first render unless given. */
  now?: number;
}

const dayMs = 86_400_000;

/** Whole days from `now` (ms) until `deleteBy` (µs), rounded up; 0 once it is past. */
export function daysLeft(deleteBy: number, now: number): number {
  return Math.max(0, Math.ceil((deleteBy / 1000 - now) / dayMs));
}

/** When each trashed file goes (µs, by id), for the cells' thumbnails. */
const DeleteByContext = createContext<ReadonlyMap<number, number>>(new Map());

type Confirm = { kind: 'files'; fileIDs: readonly number[] } | { kind: 'all' };

export function TrashView({ trash, Thumbnail = PlaceholderThumbnail, useViewerMedia, actions, now }: TrashViewProps) {
  const { t } = useTranslation('photos');
  const [clock] = useState(() => now ?? Date.now());
  const files = useMemo(() => trash.map((entry) => entry.file), [trash]);
  const { ids: selectedIDs, gridProps, barProps } = useViewSelection(files);
  const viewer = useViewerFile(files, useViewerMedia);
  // The confirm dialog stays mounted while it closes; each opening is a new one (no failure line left over).
  const [confirm, setConfirm] = useState<{ current: Confirm; open: boolean; key: number }>();
  const ask = (current: Confirm) => setConfirm({ current, open: true, key: (confirm?.key ?? 0) + 1 });
  const { restore, deleteForever, emptyTrash } = actions;
  const failures = useFailureNotice();

  // Each cell's thumbnail with the days its file has left, read after its title. One component whatever the trash
  // holds (the times come through a context): a new one at each change would mount every thumbnail anew.
  const deleteBy = useMemo(() => new Map(trash.map((entry) => [entry.file.id, entry.deleteBy])), [trash]);
  const TrashThumbnail = useMemo(() => {
    return function TrashThumbnail({ file, alt }: ThumbnailProps) {
      const days = daysLeft(useContext(DeleteByContext).get(file.id) ?? 0, now ?? clock);
      return (
        <>
          <Thumbnail file={file} alt={alt} />
          <DaysLeft text={t('trash.days_left', { count: days })} />
        </>
      );
    };
  }, [Thumbnail, now, clock, t]);

  const confirmText = (current: Confirm) =>
    current.kind === 'all'
      ? { title: t('trash.empty_title'), description: t('trash.empty_body'), confirmLabel: t('trash.empty') }
      : {
          title: t('trash.delete_title'),
          description: t('trash.delete_body', { count: current.fileIDs.length }),
          confirmLabel: t('trash.delete_forever'),
        };
  const confirmed = async (current: Confirm) => {
    await (current.kind === 'all' ? emptyTrash?.() : deleteForever?.(current.fileIDs));
  };
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary', flex: 1, minWidth: 200 }}>
          {t('trash.notice')}
        </Typography>
        {emptyTrash && trash.length > 0 && (
          <Button color="error" startIcon={<DeleteSweepIcon />} onClick={() => ask({ kind: 'all' })}>
            {t('trash.empty')}
          </Button>
        )}
      </Box>
      {trash.length === 0 ? (
        <EmptyState body={t('trash.empty_state')} />
      ) : (
        <DeleteByContext.Provider value={deleteBy}>
          <GalleryGrid
            files={files}
            label={t('nav.trash')}
            Thumbnail={TrashThumbnail}
            onOpen={viewer.onOpen}
            {...gridProps}
          />
        </DeleteByContext.Provider>
      )}
      <SelectionBar
        {...barProps}
        // Restored files leave the trash, and so the selection; a failure is said (the page logs it).
        onRestore={restore ? () => failures.run(() => restore(selectedIDs), t('trash.restore_failed')) : undefined}
        onDeleteForever={deleteForever ? () => ask({ kind: 'files', fileIDs: selectedIDs }) : undefined}
      />
      {confirm && (
        <Suspense fallback={null}>
          <ConfirmDialog
            key={confirm.key}
            open={confirm.open}
            {...confirmText(confirm.current)}
            onClose={() => setConfirm({ ...confirm, open: false })}
            onConfirm={() => confirmed(confirm.current)}
          />
        </Suspense>
      )}
      <LazyViewer {...viewer.viewerProps} />
      {failures.element}
    </>
  );
}

function DaysLeft({ text }: { text: string }) {
  return (
    <Box
      component="span"
      sx={{
        position: 'absolute',
        insetInline: 0,
        bottom: 0,
        px: 0.75,
        py: 0.25,
        typography: 'caption',
        textAlign: 'left',
        color: 'common.white',
        background: 'linear-gradient(transparent, rgba(0, 0, 0, 0.7))',
      }}
    >
      {text}
    </Box>
  );
}
