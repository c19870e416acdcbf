import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// BASE_PATH lets the static build be hosted under a sub-path, e.g. BASE_PATH=/nodeplane npm run build
const base = process.env.BASE_PATH ?? '';

/**
 * The app version names the service worker's cache: package version + git commit + a fingerprint
 * of the sources, so two different builds never share a cache name.
 */
function versionName() {
  const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
  // A fingerprint of the sources: the same in every process of one build (client, server,
  // prerender), different after any change, with or without git.
  const hash = createHash('sha1');
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1
    )) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else hash.update(`${p}\0${statSync(p).size}\0${statSync(p).mtimeMs}\n`);
    }
  };
  for (const dir of ['src', 'static', 'lessons', 'scenarios']) walk(dir);
  const fingerprint = hash.digest('hex').slice(0, 8);
  try {
    const commit = execSync('git rev-parse --short=12 HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    return `${version}-${commit}-${fingerprint}`;
  } catch {
    return `${version}-${fingerprint}`;
  }
}

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    typescript: {
      config: (tsconfig) => {
        tsconfig.include.push(
          '../cli/**/*.ts',
          '../bench/**/*.ts',
          '../scripts/**/*.ts',
          '../playwright.config.ts'
        );
        return tsconfig;
      }
    },
    adapter: adapter({
      pages: 'build',
      assets: 'build',
      fallback: '404.html',
      precompress: false,
      strict: true
    }),
    paths: { base, relative: true },
    prerender: { handleHttpError: 'fail', entries: ['*'] },
    // Registered by the layout (src/lib/pwa) so it can ask before activating a new version.
    serviceWorker: { register: false },
    // Computed once per build: the config is loaded again for prerendering (in a child process that
    // inherits the environment), and both must agree or the client cannot find the page data.
    version: { name: (process.env.NODEPLANE_VERSION ??= versionName()) },
    // Only the app's own origin. Measured needs beyond 'self':
    // - style-src 'unsafe-inline': Monaco writes <style> elements and style attributes at run time
    //   (decorations, minimap, cursor layout); without it the editor renders unstyled.
    // - img-src data: Monaco's CSS inlines a few icons as data: URIs.
    // Monaco's editor and YAML workers are module workers built into _app/immutable/workers/ and
    // loaded from our own origin, so worker-src needs no blob:. Inline scripts are allowed only by
    // the hash SvelteKit adds for its own start-up script.
    csp: {
      mode: 'hash',
      directives: {
        'default-src': ['self'],
        'script-src': ['self'],
        'style-src': ['self', 'unsafe-inline'],
        'img-src': ['self', 'data:'],
        'font-src': ['self'],
        'worker-src': ['self'],
        'connect-src': ['self'],
        'manifest-src': ['self'],
        'object-src': ['none'],
        'base-uri': ['self'],
        'form-action': ['self']
      }
    }
  }
};

export default config;
