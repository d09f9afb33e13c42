// The look of every app (docs/product.md#look): a light and a dark MUI theme (dark by default), the
// Inter type scale from 10 to 48px, and the breakpoints. The user's choice is saved by
// AppThemeProvider. Colours are chosen so that text and buttons meet WCAG AA contrast (4.5:1) in both
// themes; theme.test.ts checks every pair we use.
import { createTheme, type Theme } from '@mui/material/styles';

export type ThemeMode = 'light' | 'dark';

export const themeModes: readonly ThemeMode[] = ['light', 'dark'];

export const defaultThemeMode: ThemeMode = 'dark';

/** The colour of the top loading bar (docs/product.md#look). */
export const loadingBarColor = '#51cd7c';

/** The MUI theme of a mode. Themes are built once per mode and reused. */
export function appTheme(mode: ThemeMode): Theme {
  return (builtThemes[mode] ??= buildTheme(mode));
}

// The critical colour (destructive or failure actions) is a palette entry of its own, so that a
// button can say `color="critical"`.
declare module '@mui/material/styles' {
  interface Palette {
    critical: Palette['primary'];
  }
  interface PaletteOptions {
    critical?: PaletteOptions['primary'];
  }
}

declare module '@mui/material/Button' {
  interface ButtonPropsColorOverrides {
    critical: true;
  }
}

declare module '@mui/material/CircularProgress' {
  interface CircularProgressPropsColorOverrides {
    critical: true;
  }
}

const builtThemes: Partial<Record<ThemeMode, Theme>> = {};

const palettes = {
  dark: {
    mode: 'dark',
    primary: { main: loadingBarColor, contrastText: '#000000' },
    secondary: { main: '#c4c7c5', contrastText: '#000000' },
    critical: { main: '#ff9e96', contrastText: '#000000' },
    error: { main: '#ff9e96', contrastText: '#000000' },
    background: { default: '#141414', paper: '#1f1f1f' },
    text: { primary: '#f5f5f5', secondary: '#b8b8b8', disabled: '#8a8a8a' },
    divider: 'rgba(255, 255, 255, 0.16)',
  },
  light: {
    mode: 'light',
    primary: { main: '#1b7a43', contrastText: '#ffffff' },
    secondary: { main: '#5c6166', contrastText: '#ffffff' },
    critical: { main: '#c62828', contrastText: '#ffffff' },
    error: { main: '#c62828', contrastText: '#ffffff' },
    background: { default: '#f7f7f7', paper: '#ffffff' },
    text: { primary: '#1b1b1b', secondary: '#545454', disabled: '#767676' },
    divider: 'rgba(0, 0, 0, 0.14)',
  },
} as const;

const fontFamily = ['Inter', 'system-ui', '-apple-system', '"Segoe UI"', 'Roboto', 'sans-serif'].join(', ');

function buildTheme(mode: ThemeMode): Theme {
  return createTheme({
    palette: palettes[mode],
    breakpoints: { values: { xs: 0, sm: 600, md: 900, lg: 1200, xl: 1536 } },
    typography: {
      fontFamily,
      // Sizes in rem (16px root), so that the user's browser font size still applies.
      htmlFontSize: 16,
      fontSize: 14,
      h1: { fontSize: rem(48), fontWeight: 700, lineHeight: 1.15 },
      h2: { fontSize: rem(32), fontWeight: 700, lineHeight: 1.2 },
      h3: { fontSize: rem(24), fontWeight: 600, lineHeight: 1.25 },
      h4: { fontSize: rem(20), fontWeight: 600, lineHeight: 1.3 },
      h5: { fontSize: rem(18), fontWeight: 600, lineHeight: 1.35 },
      h6: { fontSize: rem(16), fontWeight: 600, lineHeight: 1.4 },
      subtitle1: { fontSize: rem(16), fontWeight: 500, lineHeight: 1.5 },
      subtitle2: { fontSize: rem(14), fontWeight: 500, lineHeight: 1.5 },
      body1: { fontSize: rem(16), fontWeight: 400, lineHeight: 1.5 },
      body2: { fontSize: rem(14), fontWeight: 400, lineHeight: 1.45 },
      button: { fontSize: rem(14), fontWeight: 600, lineHeight: 1.75, textTransform: 'none' },
      caption: { fontSize: rem(12), fontWeight: 400, lineHeight: 1.4 },
      overline: { fontSize: rem(10), fontWeight: 600, lineHeight: 1.6, letterSpacing: '0.08em' },
    },
    shape: { borderRadius: 8 },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiLink: { defaultProps: { underline: 'always' } },
    },
  });
}

function rem(px: number): string {
  return `${px / 16}rem`;
}
