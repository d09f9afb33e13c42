// Buttons drawn as MUI's text, contained and icon buttons, but plain `<button>` elements: MUI's ButtonBase (its
// ripple, its focus tracking) is about 10 KiB gzip, and the pages that must stay lightest (the app menu's button in
// every page header, the public album page) show nothing else that needs it. Keyboard and screen readers get
// the native button; the focus ring is the browser's `:focus-visible` outline in the theme's colour.
import Box from '@mui/material/Box';
import { alpha, type SxProps, type Theme } from '@mui/material/styles';
import type { ComponentProps } from 'react';

export type PlainButtonVariant = 'text' | 'contained' | 'icon';

export type PlainButtonProps = Omit<ComponentProps<'button'>, 'color'> & {
  /** `text` (the default), `contained` (filled with the primary colour) or `icon` (round, a glyph alone). */
  variant?: PlainButtonVariant;
  /** The text colour of a text button; `inherit` takes the parent's. */
  color?: 'primary' | 'error' | 'inherit';
  sx?: SxProps<Theme>;
};

export function PlainButton({ variant = 'text', color = 'primary', sx, type = 'button', ...props }: PlainButtonProps) {
  return (
    <Box
      component="button"
      type={type}
      {...props}
      sx={[buttonSx(variant, color), ...(sx === undefined ? [] : isSxList(sx) ? sx : [sx])]}
    />
  );
}

type SxList = Extract<SxProps<Theme>, readonly unknown[]>;

/** Whether `sx` is already a list of styles (MUI accepts one style or a list). */
function isSxList(sx: SxProps<Theme>): sx is SxList {
  return Array.isArray(sx);
}

function buttonSx(variant: PlainButtonVariant, color: 'primary' | 'error' | 'inherit'): SxList[number] {
  return (theme: Theme) => {
    const main = color === 'inherit' ? undefined : theme.palette[color].main;
    const base = {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      flexShrink: 0,
      gap: 1,
      m: 0,
      border: 0,
      cursor: 'pointer',
      fontFamily: theme.typography.fontFamily,
      '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
      '&:disabled': { cursor: 'default', pointerEvents: 'none' },
      '& svg': { flexShrink: 0 },
    } as const;
    if (variant === 'icon') {
      return {
        ...base,
        p: 1,
        borderRadius: '50%',
        fontSize: theme.typography.pxToRem(24),
        color: main ?? theme.palette.action.active,
        bgcolor: 'transparent',
        '&:hover': { bgcolor: theme.palette.action.hover },
      };
    }
    const button = { ...base, ...theme.typography.button, minWidth: 64, borderRadius: `${theme.shape.borderRadius}px` };
    if (variant === 'contained') {
      return {
        ...button,
        px: 2,
        py: 0.75,
        color: theme.palette.primary.contrastText,
        bgcolor: theme.palette.primary.main,
        '&:hover': { bgcolor: theme.palette.primary.dark },
        '&:disabled': {
          ...base['&:disabled'],
          color: theme.palette.action.disabled,
          bgcolor: theme.palette.action.disabledBackground,
        },
      };
    }
    return {
      ...button,
      px: 1,
      py: 0.75,
      color: main ?? 'inherit',
      bgcolor: 'transparent',
      '&:hover': { bgcolor: alpha(main ?? theme.palette.text.primary, theme.palette.action.hoverOpacity) },
      '&:disabled': { ...base['&:disabled'], color: theme.palette.action.disabled },
    };
  };
}
