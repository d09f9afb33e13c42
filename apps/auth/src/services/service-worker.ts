// Registers the auth app's service worker (/sw.js, written by apps/auth/scripts/service-worker.mjs; see
// [Note: The auth service worker] there), which makes the app open offline. It is registered from the
// vault page once the codes show, never from a signed-out page, so a first visit to the sign-in pages
// neither fetches nor installs it; from then on it serves every page of the app.
import { reloadAt } from '@ente/shared/app/navigation.ts';
import { isDevBuild } from '@ente/shared/config.ts';
import { log } from '@ente/shared/log.ts';

/** What the page can do when a new version of the app is installed and waits. */
export interface ServiceWorkerOptions {
  /**
   * Called when a new version waits while this one runs. `apply` switches to it and reloads this tab
   * (the keys of the tab stay in its session storage). Without it, the new version starts once no tab
   * of the app is open.
   */
  onUpdateReady?: (apply: () => void) => void;
}

/** Registers /sw.js when the browser allows service workers here; failures are logged, never thrown. */
export async function registerServiceWorker(options: ServiceWorkerOptions = {}): Promise<void> {
  // Service workers need a secure context (https, or localhost). Development builds have no sw.js.
  if (isDevBuild || typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !window.isSecureContext) {
    return;
  }
  const container = navigator.serviceWorker;
  let registration: ServiceWorkerRegistration;
  try {
    // Always revalidate sw.js itself, whatever the server's caching headers say.
    registration = await container.register('/sw.js', { scope: '/', updateViaCache: 'none' });
  } catch (e) {
    log.warn('Could not register the service worker', e);
    return;
  }
  const { onUpdateReady } = options;
  if (!onUpdateReady) return;

  const offer = (waiting: ServiceWorker) => {
    onUpdateReady(() => {
      container.addEventListener('controllerchange', () => reloadAt(window.location.href), { once: true });
      waiting.postMessage({ type: 'SKIP_WAITING' });
    });
  };
  // A version that waits already (installed during an earlier visit), or one installed from now on.
  // Without a controller this is the first install, not an update: nothing to offer.
  if (registration.waiting && container.controller) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed' && container.controller) offer(installing);
    });
  });
}
