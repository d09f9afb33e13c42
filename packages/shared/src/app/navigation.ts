// Full page loads, for the moments when nothing of the running app may survive (after logout, the idle
// lock): a new document starts from the cleared storage, with no in-memory state and no request still in
// flight; and for leaving the app for another site (the accounts app's passkey check).
//
// [Note: Leaving for good]
// The document left behind must not come back with Back: the back/forward cache of the browser would
// restore it whole, its JavaScript heap included (decrypted codes, notes, keys). So the new page replaces
// the current history entry (`location.replace`); Chromium then does not restore the old document, not
// even at one of its earlier entries (tests/bfcache.spec.ts in e2e). Should a browser restore it all the
// same, its `pageshow` (persisted) loads it afresh at once.

/** Loads `path` afresh, leaving this document for good. See: [Note: Leaving for good] */
export function reloadAt(path: string): void {
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) window.location.reload();
  });
  window.location.replace(path);
}

/** Leaves the app for an absolute URL of another site. */
export function leaveFor(url: string): void {
  window.location.assign(url);
}
