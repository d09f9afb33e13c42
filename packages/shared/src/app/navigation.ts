// Full page loads, for the moments when nothing of the running app may survive (after logout): a new
// document starts from the cleared storage, with no in-memory state and no request still in flight.

/** Loads `path` afresh, leaving this document. */
export function reloadAt(path: string): void {
  window.location.assign(path);
}
