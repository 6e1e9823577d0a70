import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'

// The layers of design.md §2: each imports only from the layers above it.
const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map((group) => ({ group: [group], message })) }
    ]
  }
})

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
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
  layer(['src/shared/**'], ['**/core/**', '**/main/**', '**/preload/**', '**/renderer/**', '**/cli/**', '**/service/**', 'electron', 'node:*', 'undici'], 'src/shared uses nothing but the language.'),
  layer(['src/core/**'], ['**/main/**', '**/preload/**', '**/renderer/**', '**/cli/**', 'electron'], 'src/core runs in plain Node: shared and libraries only, never electron.'),
  layer(['src/preload/**'], ['**/core/**', '**/main/**', '**/renderer/**', '**/cli/**', '**/service/**'], 'the preload uses shared and electron only.'),
  layer(['src/renderer/**'], ['**/core/**', '**/main/**', '**/preload/**', '**/cli/**', '**/service/**', 'electron', 'node:*'], 'the renderer talks to the app only through the bridge.'),
  layer(['src/cli/**'], ['**/main/**', '**/preload/**', '**/renderer/**', 'electron'], 'the command runs on the core, never electron.'),
  layer(['src/service/**'], ['**/core/**', '**/main/**', '**/preload/**', '**/renderer/**', '**/cli/**', 'electron'], 'the reference service stands alone: shared types only.')
)
