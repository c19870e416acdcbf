/**
 * Registers the service worker and tracks updates. A new version installs in the background and
 * waits; the app shows a prompt, and only when the learner agrees does the waiting worker take
 * over (SKIP_WAITING), after which the page reloads once on `controllerchange`. Until then the old
 * worker keeps serving the old cache, so old and new assets never mix.
 */
import { dev } from '$app/environment';
import { base } from '$app/paths';

export const pwa = $state({ updateReady: false, offlineReady: false });

let waiting: ServiceWorker | null = null;

function markWaiting(worker: ServiceWorker): void {
  waiting = worker;
  pwa.updateReady = true;
}

function track(worker: ServiceWorker): void {
  worker.addEventListener('statechange', () => {
    if (worker.state !== 'installed') return;
    // With no controller this is the first install: the app is now cached, nothing to replace.
    if (navigator.serviceWorker.controller) markWaiting(worker);
    else pwa.offlineReady = true;
  });
}

export async function registerServiceWorker(): Promise<void> {
  // In dev the worker would cache modules that Vite rewrites on every edit.
  if (dev || !('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.register(`${base}/service-worker.js`);
  if (registration.waiting && navigator.serviceWorker.controller) markWaiting(registration.waiting);
  if (registration.installing) track(registration.installing);
  registration.addEventListener('updatefound', () => {
    if (registration.installing) track(registration.installing);
  });
  // Look for a new version when the learner comes back to the tab; offline this just fails.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') registration.update().catch(() => undefined);
  });
}

/** Activate the waiting version and reload into it. */
export function applyUpdate(): void {
  if (!waiting) return;
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  waiting.postMessage({ type: 'SKIP_WAITING' });
}

export function dismissUpdate(): void {
  pwa.updateReady = false;
}
