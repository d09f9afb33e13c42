// The field for a six-digit code (an e-mail code or a TOTP code): one field, so that pasting and the
// browser's one-time-code autofill work; everything but digits is dropped as it comes in, so "123 456"
// pasted or typed is the code 123456 (docs/protocol.md#conventions). The sixth digit submits by itself
// (`onComplete`). While the page works on a code the field is disabled; when it is enabled again it
// takes the focus back, so the next attempt can be typed at once.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { Field } from './Field.tsx';

import '../strings.ts';

/** How many digits a code has. */
export const codeLength = 6;

export interface CodeInputProps {
  value: string;
  /** The digits typed so far (at most six). */
  onChange: (digits: string) => void;
  /** Called once the sixth digit arrives. */
  onComplete: (code: string) => void;
  disabled?: boolean;
  /** The problem with the code, translated. */
  error?: string;
  autoFocus?: boolean;
}

export function CodeInput({ value, onChange, onComplete, disabled = false, error, autoFocus }: CodeInputProps) {
  const { t } = useTranslation('accounts');
  const input = useRef<HTMLInputElement>(null);
  const wasDisabled = useRef(disabled);

  useEffect(() => {
    if (wasDisabled.current && !disabled) input.current?.focus();
    wasDisabled.current = disabled;
  }, [disabled]);

  return (
    <Field
      label={t('form_code_label')}
      name="code"
      autoComplete="one-time-code"
      autoFocus={autoFocus}
      inputRef={input}
      value={value}
      disabled={disabled}
      error={error}
      onChange={(event) => {
        const digits = onlyDigits(event.target.value);
        if (digits === value) return;
        onChange(digits);
        if (digits.length === codeLength) onComplete(digits);
      }}
      inputProps={{
        inputMode: 'numeric',
        // No maxLength: a pasted "123 456" is seven characters until its space is dropped.
        pattern: '[0-9 ]*',
        autoCapitalize: 'off',
        autoCorrect: 'off',
        spellCheck: false,
      }}
      sx={{ '& input': { fontSize: '1.5rem', letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
    />
  );
}

/** The first six digits of what was typed or pasted, ignoring everything else. */
export function onlyDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, codeLength);
}
