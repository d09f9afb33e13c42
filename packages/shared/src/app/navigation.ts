// Full page loads, for the moments when nothing of the running app may survive (after logout): a new
// document starts from the cleared storage, with no in-memory state and no request still in flight; and
// for leaving the app for another site (the accounts app's passkey check).

/** Loads `path` afresh, leaving this document. */
export function reloadAt(path: string): void {
  window.location.assign(path);
}

/** Leaves the app for an absolute URL of another site. */
export function leaveFor(url: string): void {
  window.location.assign(url);
}
