// The e-mail field of the sign-in forms, set up for the browser's autofill and mobile keyboards.
import { useTranslation } from 'react-i18next';

import { Field, type FieldProps } from './Field.tsx';

import '../strings.ts';

export type EmailInputProps = Omit<FieldProps, 'label' | 'type' | 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
  /** The translated label, when "E-mail address" is not what the field holds (e.g. a new address). */
  label?: string;
};

export function EmailInput({ value, onChange, label, inputProps, ...props }: EmailInputProps) {
  const { t } = useTranslation('accounts');
  return (
    <Field
      label={label ?? t('form_email_label')}
      type="email"
      name="email"
      autoComplete="email"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      inputProps={{ inputMode: 'email', autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false, ...inputProps }}
      {...props}
    />
  );
}
