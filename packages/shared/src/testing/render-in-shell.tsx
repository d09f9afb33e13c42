// For tests only: renders UI inside the providers the app shell gives every page (theme, i18n,
// dialogs), with dialog transitions switched off so that closing is immediate.
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';

import { AppThemeProvider } from '../app/AppThemeProvider.tsx';
import { DialogProvider } from '../dialog/DialogProvider.tsx';
import { i18n } from '../i18n/i18n.ts';
import { appTheme } from '../theme.ts';

const instantTheme = createTheme(appTheme('dark'), {
  components: {
    MuiDialog: { defaultProps: { transitionDuration: 0 } },
    MuiMenu: { defaultProps: { transitionDuration: 0 } },
  },
});

/**
 * Renders `ui` with the shell's providers. The switchable theme (AppThemeProvider) is there for the
 * menu, but the MUI theme in effect is always the dark one, without transitions.
 */
export function renderInShell(ui: ReactElement): RenderResult {
  return render(
    <AppThemeProvider>
      <ThemeProvider theme={instantTheme}>
        <I18nextProvider i18n={i18n}>
          <DialogProvider>{ui}</DialogProvider>
        </I18nextProvider>
      </ThemeProvider>
    </AppThemeProvider>,
  );
}
