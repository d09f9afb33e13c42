// The tags of a code as chips, with the tags of the other codes offered as suggestions; a new tag is
// typed and confirmed with Enter (or by leaving the field). Several tags per code.
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { normalisedTags } from '../../services/code-edits.ts';
import { visibleText } from '../../services/visible-text.ts';

export interface TagsFieldProps {
  tags: readonly string[];
  onChange: (tags: string[]) => void;
  knownTags: readonly string[];
  disabled?: boolean;
  label?: string;
}

export function TagsField({ tags, onChange, knownTags, disabled, label }: TagsFieldProps) {
  const { t } = useTranslation('codes');
  const [input, setInput] = useState('');
  const commitInput = () => {
    if (input.trim() === '') return;
    onChange(normalisedTags([...tags, input]));
    setInput('');
  };
  return (
    <Autocomplete
      multiple
      freeSolo
      options={knownTags.filter((tag) => !tags.includes(tag))}
      value={[...tags]}
      onChange={(_, value) => onChange(normalisedTags(value))}
      inputValue={input}
      onInputChange={(_, value) => setInput(value)}
      onBlur={commitInput}
      disabled={disabled}
      filterSelectedOptions
      // Another code's tag may hold characters that draw nothing: shown as markers, dropped when chosen.
      getOptionLabel={(tag) => visibleText(tag)}
      renderInput={(params) => (
        <TextField {...params} label={label ?? t('editor.tags_label')} helperText={t('editor.tags_hint')} />
      )}
    />
  );
}
