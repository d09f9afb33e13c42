// The thin bar at the top of the window while something loads (loading-bar.ts says when): it appears at 8 %,
// creeps on while the work runs without ever reaching the end, then fills, fades out and is removed. Its look is
// TopLoadingBar's styles (app/TopLoadingBar.tsx). Our own few lines where nprogress was: its settings, queue and
// vendor-prefix sniffing were about 1.4 KiB gzip of every route's first load, for a bar drawn this one way.

/** The bar's element id (its styles select it). */
export const progressBarID = 'top-loading-bar';

const minimum = 0.08;
/** The bar's moves and its fade, ms. */
const moveMs = 200;
/** How often a running bar creeps on, ms, and by up to how much of the width. */
const creepMs = 800;
const creepBy = 0.02;
const never = 0.994;

let shown: number | undefined;
let creepTimer: ReturnType<typeof setTimeout> | undefined;
let fadeTimer: ReturnType<typeof setTimeout> | undefined;

const element = () => document.getElementById(progressBarID);

function place(bar: HTMLElement, fraction: number, animated: boolean): void {
  bar.style.transition = animated ? `transform ${moveMs}ms ease` : 'none';
  bar.style.transform = `translate3d(${(fraction - 1) * 100}%,0,0)`;
}

function creep(bar: HTMLElement): void {
  creepTimer = setTimeout(() => {
    if (shown === undefined) return;
    shown = Math.min(never, shown + Math.random() * creepBy);
    place(bar, shown, true);
    creep(bar);
  }, creepMs);
}

export const progressBar = {
  /** Shows the bar and lets it creep on (a running bar is left as it is). */
  start(): void {
    if (shown !== undefined) return;
    clearTimeout(fadeTimer);
    let root = element();
    if (!root) {
      root = document.createElement('div');
      root.id = progressBarID;
      // Decorative: no role (the pages that wait say so in words).
      root.innerHTML = '<div class="bar"><div class="peg"></div></div>';
      document.body.append(root);
    }
    const bar = root.firstElementChild as HTMLElement;
    root.style.transition = 'none';
    root.style.opacity = '1';
    place(bar, 0, false);
    bar.getBoundingClientRect(); // lays the empty bar out, so that the move to 8 % is drawn as one
    shown = minimum;
    place(bar, shown, true);
    creep(bar);
  },

  /** Fills the bar, then fades it out and removes it. */
  done(): void {
    const root = element();
    if (shown === undefined || !root) return;
    shown = undefined;
    clearTimeout(creepTimer);
    place(root.firstElementChild as HTMLElement, 1, true);
    fadeTimer = setTimeout(() => {
      root.style.transition = `opacity ${moveMs}ms linear`;
      root.style.opacity = '0';
      fadeTimer = setTimeout(() => root.remove(), moveMs);
    }, moveMs);
  },
};
