// What the page asks about an upload: how folders inside the picked folders become albums (a dialog: one album
// per folder, or one for each whole tree), and what to do with an upload a reload interrupted (a notice: resume
// the files this browser can read again, or upload the same files again, or discard it). The decisions are the
// caller's (app/use-uploads.ts); this only asks.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { cornerAlertSx } from '../corner-alert.ts';

export type FolderAlbumsChoice = 'tree' | 'perFolder';

export interface UploadPromptsProps {
  /** Set while the picked folders hold folders: how many, and where the answer goes (undefined: cancelled). */
  nested?: { folders: number; choose: (mode: FolderAlbumsChoice | undefined) => void };
  /** Set while an interrupted upload waits. */
  left?: { count: number; resumable: number; resume: () => void; discard: () => void };
  /** Set when an upload failed before its files reached the panel; `dismiss` once the person has read it. */
  failed?: { dismiss: () => void };
}

export function UploadPrompts({ nested, left, failed }: UploadPromptsProps) {
  return (
    <>
      {nested && <NestedFoldersDialog {...nested} />}
      {left && <InterruptedUpload {...left} />}
      {failed && <UploadFailed {...failed} />}
    </>
  );
}

function UploadFailed({ dismiss }: NonNullable<UploadPromptsProps['failed']>) {
  const { t } = useTranslation('photos');
  return (
    <Alert severity="error" onClose={dismiss} sx={cornerAlertSx('bottom', 'right')}>
      {t('upload_problem.start_failed')}
    </Alert>
  );
}

function NestedFoldersDialog({ folders, choose }: NonNullable<UploadPromptsProps['nested']>) {
  const { t } = useTranslation('photos');
  const titleId = useId();
  const descriptionId = useId();
  return (
    <Dialog open onClose={() => choose(undefined)} aria-labelledby={titleId} aria-describedby={descriptionId}>
      <DialogTitle id={titleId}>{t('upload_nested.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={descriptionId}>{t('upload_nested.description', { count: folders })}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={() => choose(undefined)}>{t('upload_nested.cancel')}</Button>
        <Button variant="outlined" onClick={() => choose('tree')}>
          {t('upload_nested.tree')}
        </Button>
        <Button variant="contained" autoFocus onClick={() => choose('perFolder')}>
          {t('upload_nested.per_folder')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function InterruptedUpload({ count, resumable, resume, discard }: NonNullable<UploadPromptsProps['left']>) {
  const { t } = useTranslation('photos');
  const toPick = count - resumable;
  return (
    <Alert
      component="section"
      // A notice found on arrival, not an alarm: a region the person reaches, not an alert read out at once.
      role="region"
      aria-label={t('upload_resume.label')}
      severity="info"
      sx={cornerAlertSx('bottom', 'left')}
      action={
        <>
          {resumable > 0 && (
            <Button color="inherit" size="small" onClick={resume}>
              {t('upload_resume.resume', { count: resumable })}
            </Button>
          )}
          <Button color="inherit" size="small" onClick={discard}>
            {t('upload_resume.discard')}
          </Button>
        </>
      }
    >
      {t('upload_resume.title', { count })}
      {toPick > 0 && ` ${t('upload_resume.pick_again', { count: toPick })}`}
    </Alert>
  );
}
