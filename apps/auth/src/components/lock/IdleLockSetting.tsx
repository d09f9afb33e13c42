// The idle lock setting (services/idle-lock.ts): how long this tab may sit unused before it locks, or
// never. A native select, so that it works inside a menu or a drawer without a nested popover; it saves
// at once, and IdleLock follows the change.
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import NativeSelect from '@mui/material/NativeSelect';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { idleLockChoices, saveIdleLockMinutes } from '../../services/idle-lock.ts';
import { useIdleLockMinutes } from './IdleLock.tsx';

export function IdleLockSetting({ onChange }: { onChange?: (minutes: number) => void }): React.ReactNode {
  const { t } = useTranslation('codes');
  const minutes = useIdleLockMinutes();
  const id = useId();
  // A value saved by hand that is not one of the choices still shows as what it is.
  const choices: readonly number[] = idleLockChoices.includes(minutes as never)
    ? idleLockChoices
    : [...idleLockChoices, minutes];

  return (
    <Box onKeyDown={(event) => event.stopPropagation()}>
      <FormControl fullWidth size="small">
        <InputLabel variant="standard" htmlFor={`${id}-select`}>
          {t('lock.settingLabel')}
        </InputLabel>
        <NativeSelect
          value={minutes}
          inputProps={{ id: `${id}-select`, 'aria-describedby': `${id}-help` }}
          onChange={(event) => {
            const value = Number(event.target.value);
            saveIdleLockMinutes(value);
            onChange?.(value);
          }}
        >
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {choiceLabel(choice, t)}
            </option>
          ))}
        </NativeSelect>
        <FormHelperText id={`${id}-help`} sx={{ mx: 0 }}>
          {t('lock.settingHelp')}
        </FormHelperText>
      </FormControl>
    </Box>
  );
}

function choiceLabel(minutes: number, t: ReturnType<typeof useTranslation<'codes'>>['t']): string {
  if (minutes === 0) return t('lock.never');
  if (minutes === 1) return t('lock.minute');
  if (minutes === 60) return t('lock.hour');
  return t('lock.minutes', { minutes });
}
