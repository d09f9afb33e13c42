// A write that lost the race (protocol: ifUpdatedAt, 409): the user's version of the code beside the
// server's newer one, with the rows that differ marked, or the news that the code was deleted
// elsewhere. Nothing is overwritten silently: the user keeps one of the two. The dialog stays open
// until the choice is made (the page shows the next conflict, if any, after this one).
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { alpha } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import visuallyHidden from '@mui/utils/visuallyHidden';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import type { CodeData } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';
import type { VaultConflict } from '../../vault/vault.ts';
import { failureMessage, keyMessage } from './editor-text.ts';

export interface ConflictDialogProps {
  conflict: VaultConflict | undefined;
  onResolve: (choice: 'mine' | 'theirs') => Promise<void>;
}

export function ConflictDialog({ conflict, onResolve }: ConflictDialogProps): React.ReactNode {
  const { t, i18n } = useTranslation('codes');
  const id = useId();
  const [resolving, setResolving] = useState<'mine' | 'theirs'>();
  const [error, setError] = useState<string>();
  // What was shown stays shown while the dialog closes; a new conflict starts afresh.
  const [shown, setShown] = useState(conflict);
  if (conflict && conflict !== shown) {
    setShown(conflict);
    setResolving(undefined);
    setError(undefined);
  }

  const resolve = async (choice: 'mine' | 'theirs') => {
    setResolving(choice);
    setError(undefined);
    try {
      await onResolve(choice);
    } catch (e) {
      setError(failureMessage(t, i18n, e, 'editor.resolve_failed'));
    }
    setResolving(undefined);
  };

  const theirs = shown?.theirs;
  const theirsCode = theirs && theirs !== 'deleted' && theirs.kind === 'code' ? theirs.code : undefined;
  const rows = shown && theirsCode ? compared(t, shown.mine, theirsCode) : [];

  return (
    <Dialog
      open={conflict !== undefined}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-intro`}
      fullWidth
      maxWidth="md"
    >
      <DialogTitle id={`${id}-title`}>{t('editor.conflict_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-intro`} sx={{ mb: 2 }}>
          {theirs === 'deleted'
            ? t('editor.conflict_deleted')
            : theirsCode
              ? t('editor.conflict_intro')
              : t('editor.conflict_broken')}
        </DialogContentText>
        {theirs && theirs !== 'deleted' && theirs.kind === 'broken' && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {keyMessage(t, i18n, theirs.item.errorKey, 'editor.conflict_broken')}
          </Alert>
        )}
        {shown && (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell component="th" scope="col">
                    {t('editor.conflict_field')}
                  </TableCell>
                  <TableCell component="th" scope="col">
                    {t('editor.conflict_mine')}
                  </TableCell>
                  {theirsCode && (
                    <TableCell component="th" scope="col">
                      {t('editor.conflict_theirs')}
                    </TableCell>
                  )}
                </TableRow>
              </TableHead>
              <TableBody>
                {(theirsCode ? rows : compared(t, shown.mine, undefined)).map((row) => (
                  <TableRow
                    key={row.label}
                    data-differs={row.differs || undefined}
                    sx={
                      row.differs
                        ? (theme) => ({ backgroundColor: alpha(theme.palette.warning.main, 0.16) })
                        : undefined
                    }
                  >
                    <TableCell component="th" scope="row" sx={{ fontWeight: row.differs ? 600 : undefined }}>
                      {row.label}
                      {row.differs && (
                        <Box component="span" sx={visuallyHidden}>{` (${t('editor.conflict_differs')})`}</Box>
                      )}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{row.mine}</TableCell>
                    {theirsCode && (
                      <TableCell sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{row.theirs}</TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
        {error && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <LoadingButton
          onClick={() => void resolve('theirs')}
          loading={resolving === 'theirs'}
          disabled={resolving !== undefined}
          color="secondary"
        >
          {t('editor.keep_theirs')}
        </LoadingButton>
        <LoadingButton
          onClick={() => void resolve('mine')}
          loading={resolving === 'mine'}
          disabled={resolving !== undefined}
          variant="contained"
        >
          {t('editor.keep_mine')}
        </LoadingButton>
      </DialogActions>
    </Dialog>
  );
}

export default ConflictDialog;

interface ComparedRow {
  label: string;
  mine: string;
  theirs: string;
  differs: boolean;
}

/** The rows of the comparison; with no other version, nothing differs. */
function compared(t: TFunction<'codes'>, mine: CodeData, theirs: CodeData | undefined): ComparedRow[] {
  const yesNo = (value: boolean) => (value ? t('editor.yes') : t('editor.no'));
  const text = (value: string) => (value.trim() === '' ? t('editor.none') : visibleText(value));
  const kind = (data: CodeData) =>
    data.type === 'steam'
      ? t('editor.kind_steam')
      : data.type === 'hotp'
        ? t('editor.kind_hotp', { digits: data.digits, counter: data.counter })
        : t('editor.kind_totp', { digits: data.digits, period: data.period });
  const tags = (data: CodeData) => text(data.display.tags.join(', '));
  const row = (label: string, value: (data: CodeData) => string, differs?: (a: CodeData, b: CodeData) => boolean) => {
    const mineValue = value(mine);
    const theirsValue = theirs ? value(theirs) : '';
    return {
      label,
      mine: mineValue,
      theirs: theirsValue,
      differs: theirs !== undefined && (differs ? differs(mine, theirs) : mineValue !== theirsValue),
    };
  };
  return [
    row(t('editor.field_issuer'), (data) => text(data.issuer)),
    row(t('editor.field_account'), (data) => text(data.account)),
    row(t('editor.field_kind'), kind, (a, b) => kind(a) !== kind(b) || a.algorithm !== b.algorithm),
    // The secret itself is never shown; only whether the two versions have the same one.
    row(
      t('editor.field_secret'),
      () => t('editor.secret_hidden'),
      (a, b) => a.secret !== b.secret,
    ),
    row(t('editor.field_tags'), tags, (a, b) => a.display.tags.join('\n') !== b.display.tags.join('\n')),
    row(
      t('editor.field_note'),
      (data) => text(data.display.note),
      (a, b) => a.display.note !== b.display.note,
    ),
    row(t('editor.field_pinned'), (data) => yesNo(data.display.pinned)),
    row(t('editor.field_trashed'), (data) => yesNo(data.display.trashed)),
  ];
}
