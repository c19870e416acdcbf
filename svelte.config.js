import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

// BASE_PATH lets the static build be hosted under a sub-path, e.g. BASE_PATH=/nodeplane npm run build
const base = process.env.BASE_PATH ?? '';

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
    serviceWorker: { register: false },
    csp: {
      mode: 'hash',
      directives: {
        'default-src': ['self'],
        'script-src': ['self'],
        // Monaco injects inline styles for the editor; Svelte transitions do too.
        'style-src': ['self', 'unsafe-inline'],
        'img-src': ['self', 'data:', 'blob:'],
        'font-src': ['self', 'data:'],
        // Monaco and the simulation run in module workers served from our own origin.
        'worker-src': ['self', 'blob:'],
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
