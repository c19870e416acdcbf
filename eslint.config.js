import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

export default defineConfig(
  {
    ignores: [
      'build/',
      '.svelte-kit/',
      'src/lib/lessons/validators.generated.ts',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'coverage/'
    ]
  },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  prettier,
  ...svelte.configs.prettier,
  { languageOptions: { globals: { ...globals.browser, ...globals.node } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
    }
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        extraFileExtensions: ['.svelte'],
        parser: ts.parser,
        svelteConfig
      }
    }
  },
  {
    // The simulation is deterministic: no wall clock and no Math.random inside src/lib/sim.
    files: ['src/lib/sim/**/*.ts'],
    ignores: ['src/lib/sim/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the engine seeded random (engine/random.ts).' },
        { object: 'Date', property: 'now', message: 'Use the engine virtual clock.' },
        { object: 'performance', property: 'now', message: 'Use the engine virtual clock.' }
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Schedule on the engine queue.' },
        { name: 'setInterval', message: 'Schedule on the engine queue.' }
      ]
    }
  },
  {
    // The read-side door: pages and views read the simulation only through sim/observe, the session
    // protocol and the console protocol types. The lab session itself runs in a Web Worker.
    files: ['src/lib/ui/**/*.{ts,svelte}', 'src/routes/**/*.{ts,svelte}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(\\$lib/sim|(\\.\\./)+sim)/(?!observe(/schemas|/version)?$|session/protocol$|kubectl/protocol$)',
              message:
                'UI code reads the simulation only through $lib/sim/observe, $lib/sim/session/protocol and $lib/sim/kubectl/protocol (docs/architecture.md).'
            }
          ]
        }
      ]
    }
  }
);
