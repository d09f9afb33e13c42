// The upload panel, in the page's corner while there are uploads: how far the whole upload is (a bar over the
// bytes of work), and each file's stage, progress or how it ended (uploaded, skipped as already in the album,
// added from another album, failed and why, cancelled), with cancel and retry per file and for all, and clear
// when finished. It shows the upload queue's snapshot (../../upload/queue.ts, read with useUploadQueue) and calls
// the queue's methods; it uploads nothing itself.
import CancelIcon from '@mui/icons-material/Close';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import RetryIcon from '@mui/icons-material/Replay';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import { memo, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { UploadItem, UploadQueueSnapshot } from '../../upload/queue.ts';
import { CornerPanel, percent, RowText } from '../CornerPanel.tsx';

export interface UploadPanelProps {
  snapshot: UploadQueueSnapshot;
  onCancel: (id: number) => void;
  onCancelAll: () => void;
  onRetry: (id: number) => void;
  onRetryFailed: () => void;
  onClearFinished: () => void;
}

const running: ReadonlySet<UploadItem['status']> = new Set(['hashing', 'encrypting', 'uploading', 'finishing']);

export function UploadPanel(props: UploadPanelProps) {
  const { snapshot, onCancelAll, onRetryFailed, onClearFinished } = props;
  const { t } = useTranslation('photos');
  const listId = useId();
  const [expanded, setExpanded] = useState(true);
  // Rows get callbacks that never change, so that a row re-renders only when its item does (the queue keeps
  // an unchanged item's object): with hundreds of files, re-rendering every row at each report froze the page.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  const onCancel = useCallback((id: number) => latest.current.onCancel(id), []);
  const onRetry = useCallback((id: number) => latest.current.onRetry(id), []);
  const { items, progress, pending } = snapshot;
  if (items.length === 0) return null;
  const failed = items.some((item) => item.status === 'failed' || item.status === 'cancelled');
  const title = pending > 0 ? t('upload.title_running', { count: pending }) : t('upload.title_done');

  return (
    <CornerPanel
      label={t('upload.panel_label')}
      title={title}
      // Said once every file has ended, not at each file.
      ended={pending === 0}
      side="right"
      actions={
        <IconButton
          size="small"
          aria-label={t(expanded ? 'upload.hide' : 'upload.show')}
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((shown) => !shown)}
        >
          {expanded ? <ExpandMoreIcon /> : <ExpandLessIcon />}
        </IconButton>
      }
      rows={items.map((item) => (
        <UploadRow key={item.id} item={item} onCancel={onCancel} onRetry={onRetry} />
      ))}
      listId={listId}
      listHidden={!expanded}
    >
      <LinearProgress
        variant="determinate"
        value={percent(progress.done, progress.total)}
        aria-label={t('upload.overall')}
        sx={{ my: 1 }}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {pending > 0 && (
          <Button size="small" onClick={onCancelAll}>
            {t('upload.cancel_all')}
          </Button>
        )}
        {failed && (
          <Button size="small" onClick={onRetryFailed}>
            {t('upload.retry_failed')}
          </Button>
        )}
        {pending < items.length && (
          <Button size="small" onClick={onClearFinished}>
            {t('upload.clear')}
          </Button>
        )}
      </Box>
    </CornerPanel>
  );
}

const UploadRow = memo(function UploadRow({
  item,
  onCancel,
  onRetry,
}: {
  item: UploadItem;
  onCancel: (id: number) => void;
  onRetry: (id: number) => void;
}) {
  const { t } = useTranslation('photos');
  const name = item.file.name;
  const active = item.status === 'queued' || running.has(item.status);
  return (
    <Box component="li" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <RowText name={name} status={statusText(item, t)} failed={item.status === 'failed'} />
        {running.has(item.status) && (
          <LinearProgress
            variant="determinate"
            value={percent(item.done, item.total)}
            aria-label={t('upload.progress', { name })}
            sx={{ mt: 0.5 }}
          />
        )}
      </Box>
      {active && (
        <IconButton size="small" aria-label={t('upload.cancel', { name })} onClick={() => onCancel(item.id)}>
          <CancelIcon fontSize="small" />
        </IconButton>
      )}
      {(item.status === 'failed' || item.status === 'cancelled') && (
        <IconButton size="small" aria-label={t('upload.retry', { name })} onClick={() => onRetry(item.id)}>
          <RetryIcon fontSize="small" />
        </IconButton>
      )}
    </Box>
  );
});

type T = ReturnType<typeof useTranslation<'photos'>>['t'];

/** What a file's line says: its stage, or how it ended. */
export function statusText(item: UploadItem, t: T): string {
  if (item.status === 'done') {
    const kind = item.outcome?.kind;
    return t(
      kind === 'skipped' ? 'upload.status.skipped' : kind === 'added' ? 'upload.status.added' : 'upload.status.done',
    );
  }
  if (item.status === 'failed') {
    const reason = item.error?.reason ?? 'unknown';
    return reason === 'cancelled' ? t('upload.status.cancelled') : t(`upload.error.${reason}`);
  }
  return t(`upload.status.${item.status}`);
}
