// A password field with a button that shows or hides what was typed. `purpose` sets the autocomplete
// hint, so that password managers offer to fill a saved password (`current`) or to save a new one
// (`new`).
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { EyeGlyph, EyeOffGlyph } from '@ente/shared/components/line-glyphs.tsx';

import { Field, type FieldProps } from './Field.tsx';

import '../strings.ts';

export type PasswordInputProps = Omit<FieldProps, 'type' | 'value' | 'onChange' | 'endAdornment'> & {
  value: string;
  onChange: (value: string) => void;
  /** `new`: a password being chosen; `current`: the account's password. */
  purpose: 'new' | 'current';
};

export function PasswordInput({ value, onChange, purpose, disabled, inputProps, ...props }: PasswordInputProps) {
  const { t } = useTranslation('accounts');
  const [visible, setVisible] = useState(false);
  return (
    <Field
      type={visible ? 'text' : 'password'}
      autoComplete={purpose === 'new' ? 'new-password' : 'current-password'}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled}
      inputProps={{ autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false, ...inputProps }}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            edge="end"
            // One name, and whether it is pressed: the pattern of a toggle button.
            aria-label={t('form_show_password')}
            aria-pressed={visible}
            disabled={disabled}
            onClick={() => setVisible((shown) => !shown)}
            // Keeps the focus (and the caret) in the field when the button is clicked.
            onMouseDown={(event) => event.preventDefault()}
          >
            {visible ? <EyeOffGlyph /> : <EyeGlyph />}
          </IconButton>
        </InputAdornment>
      }
      {...props}
    />
  );
}
