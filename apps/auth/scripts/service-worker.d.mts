// Types for scripts/service-worker.mjs (plain JavaScript, run by Node after `next build`), for the test
// that builds a service worker over a made-up export (src/services/service-worker-build.test.ts).
import type { GenerateSWOptions } from 'workbox-build';

export const serviceWorkerFile: string;
export const brandIconsCache: string;
export const precachePrefix: string;

/** The generateSW options for an export folder. */
export function serviceWorkerOptions(outDir: string): GenerateSWOptions;

/** Writes <outDir>/sw.js; resolves to what it precaches. */
export function buildServiceWorker(outDir: string): Promise<{ count: number; size: number; warnings: string[] }>;
