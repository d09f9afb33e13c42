// Where the page's notices stand: fixed in a corner of the window, over the page and its dialogs, as wide as a
// short sentence. One place for the five alerts that use it (failures, a drop's outcome, the trash, the uploads).
import type { SxProps, Theme } from '@mui/material/styles';

const inset = { xs: 8, sm: 16 };

export function cornerAlertSx(vertical: 'top' | 'bottom', horizontal: 'left' | 'right'): SxProps<Theme> {
  return { position: 'fixed', [vertical]: inset, [horizontal]: inset, maxWidth: 420, zIndex: 1400 };
}
