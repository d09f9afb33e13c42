// A button that can show a spinner (work in progress) or a tick (done) in place of its label
// (docs/product.md#app-shell). The label stays in the layout, invisible, so the button keeps its
// width; the indicator then also gives the button its accessible name.
import Box from '@mui/material/Box';
import Button, { type ButtonProps } from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { SxProps, Theme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

import { TickGlyph } from './line-glyphs.tsx';

export type LoadingButtonProps = Omit<ButtonProps, 'loading'> & {
  /** Shows a spinner and disables the button. */
  loading?: boolean;
  /** Shows a tick (when not loading). */
  done?: boolean;
};

export function LoadingButton({ loading = false, done = false, disabled, children, sx, ...props }: LoadingButtonProps) {
  const { t } = useTranslation('common');
  const indicator = loading ? (
    <CircularProgress size={20} color="inherit" aria-label={t('loading')} />
  ) : done ? (
    <TickGlyph title={t('done')} />
  ) : null;

  return (
    <Button
      {...props}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      // A spinner (a progress bar) does not name the button from inside, so the button says it.
      aria-label={loading ? t('loading') : props['aria-label']}
      sx={[{ position: 'relative' }, ...(sx === undefined ? [] : isSxList(sx) ? sx : [sx])]}
    >
      <Box
        component="span"
        aria-hidden={indicator ? true : undefined}
        sx={{ visibility: indicator ? 'hidden' : 'visible' }}
      >
        {children}
      </Box>
      {indicator && (
        <Box
          component="span"
          sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        >
          {indicator}
        </Box>
      )}
    </Button>
  );
}

type SxList = Extract<SxProps<Theme>, readonly unknown[]>;

/** Whether `sx` is already a list of styles (MUI accepts one style or a list). */
function isSxList(sx: SxProps<Theme>): sx is SxList {
  return Array.isArray(sx);
}
