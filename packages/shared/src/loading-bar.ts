// The thin progress bar at the top of the window (progress-bar.ts, docs/product.md#app-shell):
// `startLoadingBar` starts continuous progress once (calling it again while it runs changes
// nothing), `finishLoadingBar` completes it 100 ms later. Starting again within those 100 ms keeps
// the bar running instead of letting it complete and restart, so back-to-back work shows as one
// run.
import { progressBar } from './progress-bar.ts';

/** How long the bar lingers before it completes, so that quick work still shows as progress. */
export const loadingBarFinishDelayMs = 100;

let running = false;
let finishTimer: ReturnType<typeof setTimeout> | undefined;

export function startLoadingBar(): void {
  if (finishTimer !== undefined) {
    clearTimeout(finishTimer);
    finishTimer = undefined;
  }
  if (running) return;
  running = true;
  progressBar.start();
}

export function finishLoadingBar(): void {
  if (!running || finishTimer !== undefined) return;
  finishTimer = setTimeout(() => {
    finishTimer = undefined;
    running = false;
    progressBar.done();
  }, loadingBarFinishDelayMs);
}

export function isLoadingBarRunning(): boolean {
  return running;
}
