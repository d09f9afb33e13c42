// "Manage tags": every tag of the vault with how many codes carry it, each renamable. A rename rewrites
// every code that has the tag (the page's `onRename` writes them through the vault; renameTagIn in
// services/code-edits.ts says what to write); renaming onto an existing tag merges the two.
import EditIcon from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useMemo, useRef, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingButton } from '@ente/shared/components/LoadingButton.tsx';

import type { Code } from '../../services/types.ts';
import { visibleText, withoutHiddenText } from '../../services/visible-text.ts';
import { UserText } from '../UserText.tsx';
import { failureMessage } from './editor-text.ts';

export interface TagsDialogProps {
  open: boolean;
  codes: Code[];
  onClose: () => void;
  /** Renames the tag on every code that has it; rejects with the error to show. */
  onRename: (from: string, to: string) => Promise<void>;
}

export function TagsDialog({ open, codes, onClose, onRename }: TagsDialogProps) {
  const { t } = useTranslation('codes');
  const id = useId();
  const [editing, setEditing] = useState<string>();
  const editButtons = useRef(new Map<string, HTMLButtonElement | null>());
  const [returnFocusTo, setReturnFocusTo] = useState<{ tag: string }>();
  const tags = useMemo(() => {
    const counts = new Map<string, number>();
    for (const code of codes) for (const tag of new Set(code.display.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => a.localeCompare(b));
  }, [codes]);

  useEffect(() => {
    if (returnFocusTo) editButtons.current.get(returnFocusTo.tag)?.focus();
  }, [returnFocusTo]);

  const finish = (tag: string) => {
    setEditing(undefined);
    setReturnFocusTo({ tag });
  };

  return (
    <Dialog
      open={open}
      onClose={editing === undefined ? onClose : undefined}
      aria-labelledby={`${id}-title`}
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id={`${id}-title`}>{t('editor.tags_title')}</DialogTitle>
      <DialogContent>
        {tags.length === 0 ? (
          <Typography>{t('editor.tags_empty')}</Typography>
        ) : (
          <Stack component="ul" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {tags.map(([tag, count]) => (
              <Box component="li" key={tag}>
                {editing === tag ? (
                  <RenameForm
                    tag={tag}
                    existing={tags.map(([name]) => name)}
                    onRename={async (to) => {
                      await onRename(tag, to);
                      finish(to.trim());
                    }}
                    onCancel={() => finish(tag)}
                  />
                ) : (
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <Typography sx={{ overflowWrap: 'anywhere' }}>
                        <UserText text={tag} />
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {t('editor.tags_used', { count })}
                      </Typography>
                    </Box>
                    <IconButton
                      aria-label={t('editor.tag_rename', { tag: visibleText(tag) })}
                      onClick={() => setEditing(tag)}
                      disabled={editing !== undefined}
                      ref={(element) => {
                        editButtons.current.set(tag, element);
                      }}
                    >
                      <EditIcon />
                    </IconButton>
                  </Stack>
                )}
              </Box>
            ))}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={editing !== undefined}>
          {t('editor.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function RenameForm({
  tag,
  existing,
  onRename,
  onCancel,
}: {
  tag: string;
  existing: readonly string[];
  onRename: (to: string) => Promise<void>;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation('codes');
  // The field offers the name without characters that draw nothing; saving it cleans the tag.
  const [name, setName] = useState(() => withoutHiddenText(tag));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const target = withoutHiddenText(name).trim();
  const merges = target !== tag && existing.includes(target);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (target === '') {
      setError(t('editor.tag_rename_empty'));
      return;
    }
    if (target === tag) {
      onCancel();
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      await onRename(target);
    } catch (e) {
      setError(failureMessage(t, i18n, e, 'editor.tag_rename_failed'));
      setSaving(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        label={t('editor.tag_new_name', { tag: visibleText(tag) })}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setError(undefined);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            // Cancels the rename, not the dialog.
            event.stopPropagation();
            onCancel();
          }
        }}
        error={error !== undefined && !saving}
        helperText={error ?? (merges ? t('editor.tag_merge_hint', { tag: target }) : ' ')}
        disabled={saving}
        autoFocus
        fullWidth
        size="small"
        slotProps={{ htmlInput: { autoComplete: 'off' } }}
      />
      {error && !saving && error !== t('editor.tag_rename_empty') && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 1 }}>
        <Button onClick={onCancel} disabled={saving}>
          {t('editor.cancel')}
        </Button>
        <LoadingButton type="submit" variant="contained" loading={saving}>
          {t('editor.tag_rename_save')}
        </LoadingButton>
      </Stack>
    </Box>
  );
}
