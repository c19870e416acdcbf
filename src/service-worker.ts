/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
/// <reference types="@sveltejs/kit" />
/**
 * Offline: precache the whole build (app chunks, lazily loaded editor chunks and their workers,
 * the other languages' catalogs), everything in static/ and every prerendered page, then serve
 * them cache-first. Each version has its own cache. A new worker waits until the learner agrees
 * (SKIP_WAITING from the page) and deletes older caches only when it activates, so a page never
 * gets assets from two versions.
 */
import { base, build, files, prerendered, version } from '$service-worker';

const sw = self as unknown as ServiceWorkerGlobalScope;

const PREFIX = 'nodeplane-';
const CACHE = `${PREFIX}${version}`;
// The adapter's SPA fallback page is not in `prerendered`; it renders routes that were not prerendered.
const FALLBACK = `${base}/404.html`;
const ASSETS = [...new Set([...build, ...files, ...prerendered, FALLBACK])];
const PRECACHED = new Set(ASSETS);
/**
 * Lesson packs fetched at run time (`/embed/pack?src=…`, docs/embed.md): kept in their own cache,
 * which outlives app versions, so a framed pack lesson opens offline once it has been fetched.
 * Always asked of the network first, so a pack published anew is the one played when online.
 */
const PACK_CACHE = 'nodeplane.packs';
const isPackFile = (url: URL) => url.pathname.endsWith('.zip');

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // 'reload' skips the HTTP cache so the new cache never holds a stale copy of the old version.
      .then((cache) => cache.addAll(ASSETS.map((url) => new Request(url, { cache: 'reload' }))))
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      }
      await sw.clients.claim();
    })()
  );
});

sw.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void sw.skipWaiting();
});

/** The precached entry for a path: `/settings` and `/settings/` are the same prerendered page. */
function precachedPath(pathname: string): string | undefined {
  if (PRECACHED.has(pathname)) return pathname;
  const trimmed = pathname.endsWith('/') ? pathname.slice(0, -1) : `${pathname}/`;
  if (PRECACHED.has(trimmed)) return trimmed;
  return undefined;
}

async function respond(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const cache = await caches.open(CACHE);
  const path = precachedPath(url.pathname);
  if (path) {
    const hit = await cache.match(path);
    if (hit) return hit;
  }
  if (isPackFile(url)) return packFile(request);
  try {
    return await fetch(request);
  } catch (error) {
    if (request.mode === 'navigate') {
      const fallback = await cache.match(FALLBACK);
      if (fallback) return fallback;
    }
    throw error;
  }
}

async function packFile(request: Request): Promise<Response> {
  const cache = await caches.open(PACK_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw error;
  }
}

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  if (new URL(request.url).origin !== sw.location.origin) return;
  event.respondWith(respond(request));
});
