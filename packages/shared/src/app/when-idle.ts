// Deferred work that must not compete with the first paint: code that is not part of a page's first
// load (the dialog, the app menu) is fetched once someone uses the page — the first pointer move,
// touch, key press or scroll wheel — as soon as the browser is idle after that. It is then ready, also
// offline, before the user asks for it, and a visit that never interacts (a glance, a crawler, a
// redirect) does not pay for it. Focus alone does not count: a page may focus a field by itself.
// Code that is needed at once (a dialog shown before this ran) is loaded on demand by its caller.

/** The events that mean a person is using the page. */
export const interactionEvents = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel'] as const;

/**
 * Runs `task` when the browser is idle after the user's first interaction with the page (at once when
 * idle if that already happened); returns the cancel function.
 */
export function whenIdle(task: () => void): () => void {
  let cancelIdle: (() => void) | undefined;
  const waiting = () => {
    cancelIdle = onIdle(task);
  };
  if (interacted) {
    waiting();
  } else {
    waitingForInteraction.add(waiting);
    listenForInteraction();
  }
  return () => {
    waitingForInteraction.delete(waiting);
    cancelIdle?.();
  };
}

let interacted = false;
const waitingForInteraction = new Set<() => void>();
let listening = false;

function listenForInteraction(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  const options = { capture: true, passive: true } as const;
  const onInteraction = () => {
    interacted = true;
    for (const type of interactionEvents) window.removeEventListener(type, onInteraction, options);
    const tasks = [...waitingForInteraction];
    waitingForInteraction.clear();
    tasks.forEach((waiting) => waiting());
  };
  for (const type of interactionEvents) window.addEventListener(type, onInteraction, options);
}

/** Runs `task` when the browser is next idle (soon, where it cannot tell); returns the cancel function. */
function onIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: 3000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 200);
  return () => clearTimeout(handle);
}
