// The top loading bar in the shell: ../progress-bar.ts in our green (docs/product.md#look), above the
// loading overlay, and running while the router changes route. Pages can run it too
// (startLoadingBar / finishLoadingBar).
import GlobalStyles from '@mui/material/GlobalStyles';

import { progressBarID } from '../progress-bar.ts';
import { loadingBarColor } from '../theme.ts';
import { useLoadingBarOnRouteChange } from './use-route-change.ts';

export function TopLoadingBar() {
  useLoadingBarOnRouteChange();
  return <GlobalStyles styles={barStyles} />;
}

// A 3 px bar across the top, above everything, whose glowing end (the peg) leans a little.
const barStyles = {
  [`#${progressBarID}`]: { pointerEvents: 'none' },
  [`#${progressBarID} .bar`]: {
    background: loadingBarColor,
    position: 'fixed',
    zIndex: 2000,
    top: 0,
    left: 0,
    width: '100%',
    height: 3,
  },
  [`#${progressBarID} .peg`]: {
    display: 'block',
    position: 'absolute',
    right: 0,
    width: 100,
    height: '100%',
    boxShadow: `0 0 10px ${loadingBarColor}, 0 0 5px ${loadingBarColor}`,
    transform: 'rotate(3deg) translate(0px, -4px)',
  },
} as const;
