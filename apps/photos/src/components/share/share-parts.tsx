// The pieces both parts of the share dialog are made of: a section with its heading and what it is for; a small
// form on one line; a field that says under it what is wrong with what was typed, and the state behind it.
import Box from '@mui/material/Box';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState, type ReactNode } from 'react';

export function ShareSection({ heading, intro, children }: { heading: string; intro: string; children: ReactNode }) {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography id={id} variant="h6" component="h3">
        {heading}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {intro}
      </Typography>
      {children}
    </Box>
  );
}

/** A form of a field or two and its button on one line (wrapping when narrow); `onSubmit` without a reload. */
export function InlineForm(props: {
  onSubmit: () => void;
  layout?: { mt?: number; flexWrap?: 'nowrap' };
  children: ReactNode;
}) {
  const { onSubmit, layout, children } = props;
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap', ...layout }}
    >
      {children}
    </Box>
  );
}

/** A field's value and what is wrong with it; typing clears the problem. */
export function useCheckedValue<P>(initial = '') {
  const [value, setValue] = useState(initial);
  const [problem, setProblem] = useState<P>();
  const onValue = (next: string) => {
    setValue(next);
    setProblem(undefined);
  };
  return { value, setValue, problem, setProblem, onValue };
}

export type CheckedValue<P> = ReturnType<typeof useCheckedValue<P>>;

export type CheckedFieldProps<P> = Omit<TextFieldProps, 'value' | 'onChange' | 'error' | 'helperText'> & {
  /** The value and its problem (`useCheckedValue`). */
  field: CheckedValue<P>;
  /** What the problem says, under the field (and as its description). */
  says: (problem: P) => string;
};

export function CheckedField<P>({ field, says, ...props }: CheckedFieldProps<P>) {
  const { problem } = field;
  return (
    <TextField
      size="small"
      {...props}
      value={field.value}
      onChange={(event) => field.onValue(event.target.value)}
      error={problem !== undefined}
      helperText={problem === undefined ? undefined : says(problem)}
    />
  );
}
