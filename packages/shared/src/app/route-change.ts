// Which route changes cover the page with the loading overlay (docs/product.md#app-shell): only
// those that go to another path. A change of the query string or the hash alone (filters, tabs, a
// dialog's deep link) keeps the page on screen.

/** Whether navigating from `currentUrl` to `targetUrl` changes the path, ignoring query and hash. */
export function isPathChange(currentUrl: string, targetUrl: string): boolean {
  return pathOf(currentUrl) !== pathOf(targetUrl);
}

/** The path of a URL as Next's router gives it (usually "/path?query#hash"; absolute URLs work too). */
export function pathOf(url: string): string {
  return new URL(url, 'http://path.invalid').pathname;
}
