// Applies the light or dark theme and lets any component read or switch it (the app menu does). The
// choice is saved (docs/product.md#look) and followed across tabs through the storage event. The
// static prerender and the first client render use the default (dark), so hydration matches; the
// saved choice applies right after, to the page and to the theme-color meta.
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';

import { savedTheme, saveTheme } from '../storage/local-storage.ts';
import { appTheme, defaultThemeMode, type ThemeMode } from '../theme.ts';

export interface ThemeModeControl {
  mode: ThemeMode;
  setMode: (mode: ThemeMode) => void;
}

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const mode = useSyncExternalStore(subscribe, currentMode, () => defaultThemeMode);
  const control = useMemo(() => ({ mode, setMode }), [mode]);
  // The browser's own chrome (the theme-color meta of Document.tsx) follows the theme too.
  useEffect(() => {
    document
      .querySelector('meta[name="theme-color"]')
      ?.setAttribute('content', appTheme(mode).palette.background.default);
  }, [mode]);
  return (
    <ThemeModeContext value={control}>
      <ThemeProvider theme={appTheme(mode)}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ThemeModeContext>
  );
}

/** The current theme mode and a setter that also saves it. */
export function useThemeMode(): ThemeModeControl {
  const control = useContext(ThemeModeContext);
  if (!control) throw new Error('useThemeMode needs an AppThemeProvider above it');
  return control;
}

const ThemeModeContext = createContext<ThemeModeControl | undefined>(undefined);

const listeners = new Set<() => void>();

// The choice made in this tab; it applies even if saving it failed.
let chosenMode: ThemeMode | undefined;

function currentMode(): ThemeMode {
  return chosenMode ?? savedTheme() ?? defaultThemeMode;
}

function setMode(mode: ThemeMode): void {
  chosenMode = mode;
  saveTheme(mode);
  listeners.forEach((listener) => listener());
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== null && event.key !== 'theme') return;
    chosenMode = undefined;
    onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}
