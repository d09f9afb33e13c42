// The download panel, in the page's corner while there are downloads: each ZIP or original with how far it is
// (files and bytes done of the total, a bar, the original being read), cancel while it runs, and how it ended —
// downloaded, cancelled, failed and why (the panel's title counts the failed ones), with Try again for a failed or
// cancelled one — with the files a ZIP left out named and why. It shows the tab's
// downloads (../../download/downloads.ts, read by the page with useDownloads) and calls back; it downloads
// nothing itself.
import CancelIcon from '@mui/icons-material/Close';
import RetryIcon from '@mui/icons-material/Replay';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { currentLocale } from '@ente/shared/i18n/i18n.ts';

import type { DownloadTask } from '../../download/downloads.ts';
import { CornerPanel, percent, RowText } from '../CornerPanel.tsx';
import { formatBytes } from '../viewer/viewer-model.ts';

export interface DownloadPanelProps {
  tasks: readonly DownloadTask[];
  onCancel: (id: number) => void;
  /** Starts a failed or cancelled download again (from the click: a file picker may open). */
  onRetry: (id: number) => void;
  onClearFinished: () => void;
}

export function DownloadPanel({ tasks, onCancel, onRetry, onClearFinished }: DownloadPanelProps) {
  const { t } = useTranslation('photos');
  if (tasks.length === 0) return null;
  const running = tasks.filter((task) => task.status === 'running').length;
  const failed = tasks.filter((task) => task.status === 'failed').length;
  let title = t('download.title_done');
  if (running > 0) title = t('download.title_running', { count: running });
  else if (failed > 0) title = t('download.title_failed', { count: failed });
  return (
    <CornerPanel
      side="left"
      label={t('download.panel_label')}
      title={title}
      ended={running === 0}
      actions={
        running < tasks.length && (
          <Button size="small" onClick={onClearFinished}>
            {t('download.clear')}
          </Button>
        )
      }
      rows={tasks.map((task) => (
        <DownloadRow key={task.id} task={task} onCancel={onCancel} onRetry={onRetry} />
      ))}
    />
  );
}

function DownloadRow({
  task,
  onCancel,
  onRetry,
}: { task: DownloadTask } & Pick<DownloadPanelProps, 'onCancel' | 'onRetry'>) {
  const { t } = useTranslation('photos');
  const locale = currentLocale();
  const { name, status, progress, current, skipped } = task;
  const reason = (which: string) => t(`download.reason.${which as NonNullable<DownloadTask['error']>}`);
  let line: string;
  if (status === 'running') {
    const files = t('download.files', { done: progress.filesDone, total: progress.filesTotal });
    const bytes =
      progress.bytesTotal > 0
        ? t('download.bytes', {
            done: formatBytes(progress.bytesDone, locale),
            total: formatBytes(progress.bytesTotal, locale),
          })
        : formatBytes(progress.bytesDone, locale);
    line = `${files} · ${bytes}`;
  } else if (status === 'failed') line = t('download.status.failed', { reason: reason(task.error ?? 'unknown') });
  else line = t(`download.status.${status}`);
  // The bar follows the bytes when their total is known, else the files.
  const value =
    progress.bytesTotal > 0
      ? percent(progress.bytesDone, progress.bytesTotal)
      : percent(progress.filesDone, progress.filesTotal);
  return (
    <Box component="li" sx={{ py: 0.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <RowText name={name} status={line} failed={status === 'failed'} />
          {status === 'running' && current && (
            <Typography variant="caption" noWrap title={current} sx={{ color: 'text.secondary', display: 'block' }}>
              {t('download.current', { name: current })}
            </Typography>
          )}
        </Box>
        {status === 'running' && (
          <IconButton size="small" aria-label={t('download.cancel', { name })} onClick={() => onCancel(task.id)}>
            <CancelIcon fontSize="small" />
          </IconButton>
        )}
        {(status === 'failed' || status === 'cancelled') && (
          <IconButton size="small" aria-label={t('download.retry', { name })} onClick={() => onRetry(task.id)}>
            <RetryIcon fontSize="small" />
          </IconButton>
        )}
      </Box>
      {status === 'running' && (
        <LinearProgress
          variant="determinate"
          value={value}
          aria-label={t('download.progress', { name })}
          sx={{ mt: 0.5 }}
        />
      )}
      {skipped.length > 0 && (
        <Box sx={{ mt: 0.5 }}>
          <Typography variant="caption" sx={{ color: 'error.main', display: 'block' }}>
            {t('download.skipped_title', { count: skipped.length })}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {skipped.map((failure, i) => (
              <Typography component="li" variant="caption" key={i} sx={{ display: 'list-item' }}>
                {t('download.skipped', { name: failure.title, reason: reason(failure.reason) })}
              </Typography>
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
}
