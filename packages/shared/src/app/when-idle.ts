// Deferred work that must not compete with the first paint: code that is not part of a page's first
// load (the dialog, the app menu) is fetched once the browser is idle, so it is ready, also offline,
// before the user asks for it.

/** Runs `task` when the browser is first idle (soon, where it cannot tell); returns the cancel function. */
export function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: 3000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 200);
  return () => clearTimeout(handle);
}
