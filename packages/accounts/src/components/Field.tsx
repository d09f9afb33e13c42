// One labelled text field of the sign-in forms: an outlined input with its label and a line below it
// for the field's problem (or a hint). The line is always there, so a message appearing does not
// move what follows. Built from MUI's parts rather than TextField, which would bring MUI's Select
// (and with it Menu, Popover and Modal) into every sign-in page's first load.
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { useId, type ReactNode } from 'react';

export type FieldProps = Omit<OutlinedInputProps, 'error' | 'label'> & {
  /** The translated label. */
  label: string;
  /** The problem with the value, translated; shown below the field, which is then marked invalid. */
  error?: string;
  /** Shown below the field while it has no problem. */
  hint?: ReactNode;
};

export function Field({ label, error, hint, id, disabled, ...props }: FieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const messageId = `${inputId}-message`;
  const message = error ?? hint;
  return (
    <FormControl fullWidth variant="outlined" margin="dense" error={error !== undefined} disabled={disabled}>
      <InputLabel htmlFor={inputId}>{label}</InputLabel>
      <OutlinedInput
        id={inputId}
        label={label}
        {...props}
        inputProps={{ ...props.inputProps, 'aria-describedby': message === undefined ? undefined : messageId }}
      />
      {/* A blank line keeps the space when there is nothing to say (MUI renders ' ' as a zero-width space). */}
      <FormHelperText id={messageId}>{message ?? ' '}</FormHelperText>
    </FormControl>
  );
}
