// Stands in for MUI's CSS-theme-variables code in the apps' client bundles (see next.config.mjs). The
// apps' theme (packages/shared/src/theme.ts) is a plain MUI theme without CSS variables or colour
// schemes, so MUI never reaches this code; should a theme ask for it, it fails loudly here.
function cssThemeVariablesLeftOut() {
  throw new Error('MUI CSS theme variables are left out of the app bundles (config/next.config.mjs)');
}

/** In place of @mui/material/styles/createThemeWithVars.mjs. */
export default cssThemeVariablesLeftOut;

/** In place of the CssVarsProvider of @mui/material/styles/ThemeProviderWithVars.mjs. */
export const CssVarsProvider = cssThemeVariablesLeftOut;
