// The fields of a code: issuer, account, secret (hidden behind a toggle when editing), type; the
// advanced ones (algorithm, digits, period, counter) folded away until opened or wrong; then tags,
// note and pin. Controlled: the dialog holds the values and says which problems to show.
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

import { EyeGlyph, EyeOffGlyph } from '@ente/shared/components/line-glyphs.tsx';

import type { OTPAlgorithm, OTPType } from '../../services/types.ts';
import { noteLimit, withType, type CodeFormErrors, type CodeFormField, type CodeFormValues } from './code-form.ts';
import { TagsField } from './TagsField.tsx';

export interface CodeFieldsProps {
  values: CodeFormValues;
  onChange: (values: CodeFormValues) => void;
  /** The problems to show (of the fields touched, or all after a submit). */
  errors: CodeFormErrors;
  /** A field was left: its problem may show from now on. */
  onBlur: (field: CodeFormField) => void;
  /** Tags of the other codes, offered as suggestions. */
  knownTags: readonly string[];
  /** Whether the secret starts hidden (editing an existing code). */
  hideSecret: boolean;
  /** Whether the issuer field takes the focus when the form appears. */
  autoFocus?: boolean;
  disabled: boolean;
  /** Where the dialog puts the focus (the first wrong field after a submit, the issuer after an import). */
  fieldRefs: RefObject<Partial<Record<CodeFormField | 'issuer', HTMLElement | null>>>;
}

const types: readonly OTPType[] = ['totp', 'hotp', 'steam'];
const algorithms: readonly OTPAlgorithm[] = ['sha1', 'sha256', 'sha512'];

export function CodeFields({
  values,
  onChange,
  errors,
  onBlur,
  knownTags,
  hideSecret,
  autoFocus,
  disabled,
  fieldRefs,
}: CodeFieldsProps) {
  const { t } = useTranslation('codes');
  const id = useId();
  const [secretShown, setSecretShown] = useState(!hideSecret);
  const advancedWrong = errors.digits !== undefined || errors.period !== undefined || errors.counter !== undefined;
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const set = <K extends keyof CodeFormValues>(key: K, value: CodeFormValues[K]) => {
    onChange({ ...values, [key]: value });
  };
  const ref = (field: CodeFormField | 'issuer') => (element: HTMLElement | null) => {
    fieldRefs.current[field] = element;
  };
  const steam = values.type === 'steam';

  return (
    <Stack spacing={2}>
      <TextField
        label={t('editor.issuer_label')}
        value={values.issuer}
        onChange={(event) => set('issuer', event.target.value)}
        onBlur={() => onBlur('name')}
        error={errors.name !== undefined}
        helperText={errors.name ? t(errors.name) : t('editor.issuer_hint')}
        inputRef={ref('issuer')}
        disabled={disabled}
        autoComplete="off"
        autoFocus={autoFocus}
        fullWidth
      />
      <TextField
        label={t('editor.account_label')}
        value={values.account}
        onChange={(event) => set('account', event.target.value)}
        onBlur={() => onBlur('name')}
        error={errors.name !== undefined}
        helperText={errors.name ? t(errors.name) : t('editor.account_hint')}
        disabled={disabled}
        autoComplete="off"
        fullWidth
      />
      <TextField
        label={t('editor.secret_label')}
        value={values.secret}
        onChange={(event) => set('secret', event.target.value)}
        onBlur={() => onBlur('secret')}
        error={errors.secret !== undefined}
        helperText={errors.secret ? t(errors.secret) : t('editor.secret_hint')}
        inputRef={ref('secret')}
        disabled={disabled}
        type={secretShown ? 'text' : 'password'}
        required
        fullWidth
        slotProps={{
          htmlInput: { autoComplete: 'off', autoCapitalize: 'characters', spellCheck: false },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  onClick={() => setSecretShown((shown) => !shown)}
                  aria-label={secretShown ? t('editor.secret_hide') : t('editor.secret_show')}
                  aria-pressed={secretShown}
                  edge="end"
                  disabled={disabled}
                >
                  {secretShown ? <EyeOffGlyph /> : <EyeGlyph />}
                </IconButton>
              </InputAdornment>
            ),
          },
        }}
      />
      <TextField
        select
        label={t('editor.type_label')}
        value={values.type}
        onChange={(event) => onChange(withType(values, event.target.value as OTPType))}
        disabled={disabled}
        fullWidth
      >
        {types.map((type) => (
          <MenuItem key={type} value={type}>
            {t(`editor.type_${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <Accordion
        expanded={advancedOpen || advancedWrong}
        onChange={(_, expanded) => setAdvancedOpen(expanded)}
        disableGutters
        variant="outlined"
        slotProps={{ heading: { component: 'h3' } }}
      >
        <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`${id}-advanced`} id={`${id}-advanced-title`}>
          <Typography component="span">{t('editor.advanced')}</Typography>
        </AccordionSummary>
        <AccordionDetails id={`${id}-advanced`}>
          <Stack spacing={2}>
            {steam && <Typography variant="body2">{t('editor.digits_steam')}</Typography>}
            <TextField
              select
              label={t('editor.algorithm_label')}
              value={values.algorithm}
              onChange={(event) => set('algorithm', event.target.value as OTPAlgorithm)}
              disabled={disabled || steam}
              fullWidth
            >
              {algorithms.map((algorithm) => (
                <MenuItem key={algorithm} value={algorithm}>
                  {t(`editor.algorithm_${algorithm}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={t('editor.digits_label')}
              value={values.digits}
              onChange={(event) => set('digits', event.target.value)}
              onBlur={() => onBlur('digits')}
              error={errors.digits !== undefined}
              helperText={errors.digits ? t(errors.digits) : ' '}
              inputRef={ref('digits')}
              disabled={disabled || steam}
              slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
              fullWidth
            />
            {values.type !== 'hotp' && (
              <TextField
                label={t('editor.period_label')}
                value={values.period}
                onChange={(event) => set('period', event.target.value)}
                onBlur={() => onBlur('period')}
                error={errors.period !== undefined}
                helperText={errors.period ? t(errors.period) : ' '}
                inputRef={ref('period')}
                disabled={disabled || steam}
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
                fullWidth
              />
            )}
            {values.type === 'hotp' && (
              <TextField
                label={t('editor.counter_label')}
                value={values.counter}
                onChange={(event) => set('counter', event.target.value)}
                onBlur={() => onBlur('counter')}
                error={errors.counter !== undefined}
                helperText={errors.counter ? t(errors.counter) : t('editor.counter_hint')}
                inputRef={ref('counter')}
                disabled={disabled}
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
                fullWidth
              />
            )}
          </Stack>
        </AccordionDetails>
      </Accordion>
      <TagsField tags={values.tags} onChange={(tags) => set('tags', tags)} knownTags={knownTags} disabled={disabled} />
      <TextField
        label={t('editor.note_label')}
        value={values.note}
        onChange={(event) => set('note', event.target.value)}
        onBlur={() => onBlur('note')}
        error={errors.note !== undefined}
        helperText={
          errors.note
            ? `${t(errors.note)} ${t('editor.note_count', { count: values.note.length, limit: noteLimit })}`
            : t('editor.note_count', { count: values.note.length, limit: noteLimit })
        }
        inputRef={ref('note')}
        disabled={disabled}
        multiline
        minRows={2}
        maxRows={8}
        slotProps={{ htmlInput: { maxLength: Math.max(noteLimit, values.note.length) } }}
        fullWidth
      />
      <FormControlLabel
        control={<Switch checked={values.pinned} onChange={(event) => set('pinned', event.target.checked)} />}
        label={t('editor.pinned_label')}
        disabled={disabled}
      />
    </Stack>
  );
}
