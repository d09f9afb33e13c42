// The thin progress bar at the top of the window (nprogress, docs/product.md#app-shell):
// `startLoadingBar` starts continuous progress once (calling it again while it runs changes
// nothing), `finishLoadingBar` completes it 100 ms later. Starting again within those 100 ms keeps
// the bar running instead of letting it complete and restart, so back-to-back work shows as one
// run.
import NProgress from 'nprogress';

/** How long the bar lingers before it completes, so that quick work still shows as progress. */
export const loadingBarFinishDelayMs = 100;

// nprogress's own template marks the bar up with `role="bar"` (no ARIA role: axe calls it critical) and
// finds it by that attribute. The bar is decorative; pages that wait say so in words.
NProgress.configure({
  showSpinner: false,
  trickle: true,
  template: '<div class="bar"><div class="peg"></div></div>',
  barSelector: '.bar',
});

let running = false;
let finishTimer: ReturnType<typeof setTimeout> | undefined;

export function startLoadingBar(): void {
  if (finishTimer !== undefined) {
    clearTimeout(finishTimer);
    finishTimer = undefined;
  }
  if (running) return;
  running = true;
  NProgress.start();
}

export function finishLoadingBar(): void {
  if (!running || finishTimer !== undefined) return;
  finishTimer = setTimeout(() => {
    finishTimer = undefined;
    running = false;
    NProgress.done();
  }, loadingBarFinishDelayMs);
}

export function isLoadingBarRunning(): boolean {
  return running;
}
