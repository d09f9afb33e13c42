// The top loading bar in the shell: nprogress in our green (docs/product.md#look), above the
// loading overlay, and running while the router changes route. Pages can run it too
// (startLoadingBar / finishLoadingBar).
import GlobalStyles from '@mui/material/GlobalStyles';

import { loadingBarColor } from '../theme.ts';
import { useLoadingBarOnRouteChange } from './use-route-change.ts';

export function TopLoadingBar() {
  useLoadingBarOnRouteChange();
  return <GlobalStyles styles={nprogressStyles} />;
}

// Overrides of nprogress/nprogress.css (imported by the app shell): colour, height, stacking.
const nprogressStyles = {
  '#nprogress': { pointerEvents: 'none' },
  '#nprogress .bar': { background: loadingBarColor, height: 3, zIndex: 2000 },
  '#nprogress .peg': { boxShadow: `0 0 10px ${loadingBarColor}, 0 0 5px ${loadingBarColor}` },
} as const;
