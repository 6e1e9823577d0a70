import js from '@eslint/js'
import simpleImportSort from 'eslint-plugin-simple-import-sort'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// The layers of ARCHITECTURE.md: each imports only from the layers above it.
// A layer is forbidden two ways: anything inside it at any depth ('**/core/**'), and the layer's
// directory itself ('../core', '../../reference-service/index'), which no glob can tell apart from a file of
// the same name inside a layer (src/shared/service.ts, src/cli/main.ts). From a file d folders
// below src/<layer>/, src is exactly d + 1 '../' up, so one config per depth names that path.
const MAX_DEPTH = 8
const SOURCES = '*.{ts,mts,cts,js,mjs,cjs,svelte}'
const layer = (dir, { layers, modules = [], message, only = SOURCES }) =>
  Array.from({ length: MAX_DEPTH }, (_, depth) => ({
    files: [`src/${dir}/${'*/'.repeat(depth)}${only}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...layers.map((name) => ({ group: [`**/${name}/**`], message })),
            ...(layers.length ? [{ regex: `^(\\./)?(\\.\\./){${depth + 1}}(${layers.join('|')})(/|$)`, message }] : []),
            ...modules.map((name) => ({ group: [name], message }))
          ]
        }
      ]
    }
  }))

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results.json',
      '.stryker-tmp/**',
      'reports/**'
    ]
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      // One group, no blank lines: built-ins, packages, then relative paths, in that order.
      'simple-import-sort/imports': ['error', { groups: [['^\\u0000', '^node:', '^@?\\w', '^', '^\\.']] }],
      'simple-import-sort/exports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error'
    }
  },
  {
    files: ['src/renderer/**/*.svelte', 'src/renderer/**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] }
    }
  },
  {
    files: ['src/renderer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } }
  },
  ...layer('shared', {
    layers: ['core', 'main', 'preload', 'renderer', 'cli', 'reference-service'],
    modules: ['electron', 'node:*', 'undici'],
    message: 'src/shared uses nothing but the language.'
  }),
  ...layer('core', {
    layers: ['main', 'preload', 'renderer', 'cli', 'reference-service'],
    modules: ['electron'],
    message:
      'src/core runs in plain Node: shared and libraries only, never electron (its tests alone may start the reference service).'
  }),
  // Core's tests run against the reference service over real HTTP (ARCHITECTURE.md, "How the end-to-end tests stand in for Electron").
  ...layer('core', {
    only: '*.test.ts',
    layers: ['main', 'preload', 'renderer', 'cli'],
    modules: ['electron'],
    message: 'src/core runs in plain Node: shared and libraries only, never electron.'
  }),
  ...layer('main', {
    layers: ['preload', 'renderer', 'cli'],
    message:
      'src/main uses core, shared and electron (and the reference service for the demo), never the preload, the renderer or the command.'
  }),
  ...layer('preload', {
    layers: ['core', 'main', 'renderer', 'cli', 'reference-service'],
    message: 'the preload uses shared and electron only.'
  }),
  ...layer('renderer', {
    layers: ['core', 'main', 'preload', 'cli', 'reference-service'],
    modules: ['electron', 'node:*'],
    message: 'the renderer talks to the app only through the bridge.'
  }),
  ...layer('cli', {
    layers: ['main', 'preload', 'renderer'],
    modules: ['electron'],
    message: 'the command runs on the core, never electron.'
  }),
  ...layer('reference-service', {
    layers: ['core', 'main', 'preload', 'renderer', 'cli'],
    modules: ['electron'],
    message: 'the reference service stands alone: shared types only.'
  })
)
