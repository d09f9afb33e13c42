// The recovery key as its 24 words (docs/protocol.md#recovery-key), numbered in a grid that reads in
// order, with a button to copy them and one to download them as `ente-recovery-key.txt`, and, after
// sign-up, the box the user ticks to say they saved them, without which the page does not go on.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { CopyGlyph, DownloadGlyph } from '@ente/shared/components/line-glyphs.tsx';
import { log } from '@ente/shared/log.ts';
import { saveBlobAs } from '@ente/shared/save-file.ts';

import '../strings.ts';

/** The name of the downloaded file. */
export const recoveryKeyFileName = 'ente-recovery-key.txt';

export interface RecoveryWordsProps {
  /** The recovery key as words separated by spaces. */
  words: string;
  /** Whether the user ticked "I saved it". */
  saved?: boolean;
  /** Shows the "I saved it" box; without it there is no box (e.g. the key shown again from the settings). */
  onSavedChange?: (saved: boolean) => void;
  disabled?: boolean;
}

export function RecoveryWords({ words, saved, onSavedChange, disabled }: RecoveryWordsProps) {
  const { t } = useTranslation('accounts');
  const listId = useId();
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const list = words.split(' ');

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(words);
      setCopyFailed(false);
      setCopied(true);
    } catch (e) {
      log.warn('Could not copy the recovery key', e);
      setCopyFailed(true);
    }
  };

  return (
    <Box>
      <Typography id={listId} variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('form_recovery_words_heading')}
      </Typography>
      <Box
        component="ol"
        aria-labelledby={listId}
        sx={{
          listStyle: 'none',
          m: 0,
          p: 2,
          display: 'grid',
          // Columns fill top to bottom, so the numbers read down each column.
          gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(3, 1fr)' },
          gridTemplateRows: {
            xs: `repeat(${Math.ceil(list.length / 2)}, auto)`,
            sm: `repeat(${Math.ceil(list.length / 3)}, auto)`,
          },
          gridAutoFlow: 'column',
          gap: 1,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'background.paper',
          fontFamily: 'monospace',
        }}
      >
        {list.map((word, index) => (
          <Box component="li" key={index} sx={{ display: 'flex', gap: 1 }}>
            <Box component="span" sx={{ color: 'text.secondary', minWidth: '2ch', textAlign: 'right' }}>
              {index + 1}.
            </Box>
            <span>{word}</span>
          </Box>
        ))}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2, alignItems: 'center' }}>
        <Button variant="outlined" color="secondary" startIcon={<CopyGlyph size="small" />} onClick={() => void copy()}>
          {t('form_recovery_words_copy')}
        </Button>
        <Button
          variant="outlined"
          color="secondary"
          startIcon={<DownloadGlyph size="small" />}
          onClick={() => downloadText(recoveryKeyFileName, `${words}\n`)}
        >
          {t('form_recovery_words_download')}
        </Button>
        <Typography variant="body2" role="status" sx={{ color: copyFailed ? 'error.main' : 'text.secondary' }}>
          {copied ? t('form_recovery_words_copied') : copyFailed ? t('form_recovery_words_copy_failed') : ''}
        </Typography>
      </Box>
      {onSavedChange && (
        <FormControlLabel
          sx={{ mt: 2 }}
          control={
            <Checkbox
              checked={saved ?? false}
              disabled={disabled}
              onChange={(event) => onSavedChange(event.target.checked)}
            />
          }
          label={t('form_recovery_words_saved')}
        />
      )}
    </Box>
  );
}

/** Offers `text` as a file download. */
function downloadText(fileName: string, text: string) {
  saveBlobAs(new Blob([text], { type: 'text/plain;charset=utf-8' }), fileName);
}
