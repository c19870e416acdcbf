import { sveltekit } from '@sveltejs/kit/vite';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const monacoEsm = fileURLToPath(new URL('./node_modules/monaco-editor/esm/vs/', import.meta.url));

export default defineConfig({
  plugins: [sveltekit()],
  // monaco-editor >=0.56 maps "./*" to "./esm/vs/*.js" in its exports, which breaks the deep import
  // 'monaco-editor/esm/vs/editor/editor.worker.js' inside monaco-worker-manager (monaco-yaml's worker).
  resolve: { alias: [{ find: /^monaco-editor\/esm\/vs\/(.*)$/, replacement: `${monacoEsm}$1` }] },
  worker: { format: 'es' },
  build: {
    chunkSizeWarningLimit: 4096,
    rolldownOptions: { checks: { pluginTimings: false } }
  },
  test: {
    reporters: ['default', './scripts/plain-summary-reporter.ts'],
    // Simulation tests run whole clusters; on a busy 2-core machine 5 s is too tight.
    testTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'src/**/*.{test,spec}.{js,ts}',
            'tests/unit/**/*.{test,spec}.{js,ts}',
            'cli/**/*.test.ts'
          ],
          exclude: ['src/**/*.svelte.{test,spec}.{js,ts}'],
          setupFiles: ['./src/vitest-setup-i18n.ts']
        }
      },
      {
        extends: true,
        plugins: [svelteTesting()],
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.svelte.{test,spec}.{js,ts}'],
          setupFiles: ['./src/vitest-setup-client.ts', './src/vitest-setup-i18n.ts']
        }
      }
    ]
  }
});
