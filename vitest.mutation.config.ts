// The vitest setup for `npm run mutation` (stryker.config.mjs): the tests of the mutated layers
// only, narrowed further by MUTATION_TESTS (comma-separated globs) for a run of one folder.
import { defineConfig } from 'vitest/config'
import base from './vitest.config'

const only = process.env.MUTATION_TESTS?.split(',').filter((g) => g !== '')

export default defineConfig({
  ...base,
  // Not merged: mergeConfig would add these globs to the base's instead of replacing them.
  test: { ...base.test, include: only && only.length > 0 ? only : ['src/shared/**/*.test.ts', 'src/core/**/*.test.ts'] }
})
