import { precachePrefix, brandIconsCache as workerBrandIconsCache } from '../scripts/service-worker.mjs';
import { appFilesCache, brandIconsCache } from './storage.ts';

test('logout deletes the caches the service worker fills, by the same names', () => {
  expect(brandIconsCache.cache).toBe(workerBrandIconsCache);
  // Workbox names its precache `<cacheId>-precache-v2-<scope>`.
  expect(`${precachePrefix}-precache-v2-https://auth.example.org/`.startsWith(appFilesCache.cache)).toBe(true);
  expect(appFilesCache.byPrefix).toBe(true);
});
