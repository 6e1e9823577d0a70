// The vitest setup for `npm run mutation` (stryker.config.mjs, scripts/mutation.ts): the tests of
// the mutated layers only, narrowed to one folder's tests by MUTATION_TESTS (a JSON array of globs;
// not comma-separated, as a glob may hold {a,b}).
import fs from 'node:fs'
import path from 'node:path'
import { defineConfig } from 'vitest/config'
import base from './vitest.config'

// Stryker makes its sandbox (.stryker-tmp/sandbox-*) private to this user (0700). A settings test
// runs a child as another user (nobody, where the tests run as root: damaged-files.test.ts) who
// must read the test's script and tsx there, as it can in the worktree; open the sandbox as the
// worktree is (it holds only a copy of the worktree).
if (path.basename(path.dirname(process.cwd())) === '.stryker-tmp') fs.chmodSync(process.cwd(), 0o755)

const only = process.env.MUTATION_TESTS ? (JSON.parse(process.env.MUTATION_TESTS) as string[]) : []

export default defineConfig({
  ...base,
  // Not merged: mergeConfig would add these globs to the base's instead of replacing them.
  test: {
    ...base.test,
    include: only.length > 0 ? only : ['src/shared/**/*.test.ts', 'src/core/**/*.test.ts'],
    // Fewer generated cases a run than `npm test` (2000): each mutant it reaches reruns the property.
    env: { INDENTED_JSON_RUNS: '300' }
  }
})
