// The codes an image or link held when there was more than one: a checklist (duplicates of codes in the
// vault flagged and unchecked), how many images of a Google Authenticator export were read, and what
// could not be imported.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

import { isComplete, partsRead } from '../../services/code-import.ts';
import type { Code } from '../../services/types.ts';
import { visibleText } from '../../services/visible-text.ts';
import { codeName, keyMessage } from './editor-text.ts';
import { importEntries, isChosen, skippedEntries, type ImportListState } from './import-list.ts';

export interface ImportListProps {
  list: ImportListState;
  /** For each entry key, the vault's code it duplicates. */
  duplicates: ReadonlyMap<string, Code>;
  onChoose: (key: string, chosen: boolean) => void;
  /** Opens the file picker for the export's next image. */
  onNextImage: () => void;
  onStartOver: () => void;
  disabled: boolean;
  headingRef: Ref<HTMLHeadingElement>;
}

export function ImportList({
  list,
  duplicates,
  onChoose,
  onNextImage,
  onStartOver,
  disabled,
  headingRef,
}: ImportListProps) {
  const { t, i18n } = useTranslation('codes');
  const id = useId();
  const entries = importEntries(list);
  const skipped = skippedEntries(list);
  const collection = list.collection;
  const chosenCount = entries.filter(
    (entry) => !list.added.has(entry.key) && isChosen(list, entry, duplicates.has(entry.key)),
  ).length;

  return (
    <Stack spacing={2}>
      <Typography variant="h6" component="h3" tabIndex={-1} ref={headingRef} sx={{ outline: 'none' }}>
        {t('editor.list_heading')}
      </Typography>
      {collection && collection.size > 1 && (
        <Box>
          <Typography id={`${id}-progress`}>
            {t('editor.batch_progress', { read: partsRead(collection), size: collection.size })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={(100 * partsRead(collection)) / collection.size}
            aria-labelledby={`${id}-progress`}
            sx={{ my: 1 }}
          />
          {!isComplete(collection) && (
            <Alert
              severity="info"
              action={
                <Button color="inherit" size="small" onClick={onNextImage} disabled={disabled}>
                  {t('editor.batch_next')}
                </Button>
              }
            >
              {t('editor.batch_incomplete')}
            </Alert>
          )}
        </Box>
      )}
      {list.notice && (
        <Alert
          severity="warning"
          role="alert"
          action={
            list.notice === 'editor.batch_other' ? (
              <Button color="inherit" size="small" onClick={onStartOver} disabled={disabled}>
                {t('editor.start_over')}
              </Button>
            ) : undefined
          }
        >
          {t(list.notice)}
        </Alert>
      )}
      {skipped.length > 0 && (
        <Alert severity="warning">
          {skipped.map((entry, index) => (
            <Typography key={index} variant="body2">
              {t('editor.skipped', {
                name: visibleText(entry.name) || t('editor.no_name'),
                reason: keyMessage(t, i18n, entry.reasonKey, 'editor.migration_invalid', entry.values),
              })}
            </Typography>
          ))}
        </Alert>
      )}
      <Typography id={`${id}-intro`}>{t('editor.list_intro')}</Typography>
      <Stack component="ul" aria-labelledby={`${id}-intro`} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {entries.map((entry) => {
          const duplicate = duplicates.get(entry.key);
          const added = list.added.has(entry.key);
          const chosen = added || isChosen(list, entry, duplicate !== undefined);
          const note = added ? t('editor.list_added') : duplicate ? t('editor.list_duplicate') : undefined;
          return (
            <Box component="li" key={entry.key}>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={chosen}
                    onChange={(event) => onChoose(entry.key, event.target.checked)}
                    disabled={disabled || added}
                  />
                }
                label={
                  <span>
                    {codeName(t, entry.data)}
                    {note && (
                      <Typography
                        component="span"
                        variant="body2"
                        sx={{ display: 'block', color: duplicate && !added ? 'warning.main' : 'text.secondary' }}
                      >
                        {note}
                      </Typography>
                    )}
                  </span>
                }
              />
            </Box>
          );
        })}
      </Stack>
      <Typography variant="body2" aria-live="polite">
        {t('editor.list_selected', { count: chosenCount })}
      </Typography>
    </Stack>
  );
}
