// Mutation testing (`npm run mutation`): not part of `npm test`. Scoped to the shared rules and the
// core folders that decide things (client parsing and errors, monitor, notify, budgets, costs,
// secrets, settings). On a small machine run one folder at a time:
//   MUTATION_TESTS='src/core/budgets/**/*.test.ts' npm run mutation -- --mutate 'src/core/budgets/**/*.ts,!src/**/*.test.ts' --incrementalFile bench/mutation/budgets.incremental.json
// Incremental: results are kept in bench/mutation/, so a later run only tests
// mutants whose code or tests changed.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'src/shared/**/*.ts',
    'src/core/client/{parse,errors,retry,number-text,key-check,digest,schemas}.ts',
    'src/core/monitor/**/*.ts',
    'src/core/notify/**/*.ts',
    'src/core/budgets/**/*.ts',
    'src/core/costs/**/*.ts',
    'src/core/secrets/{redact,choose,types}.ts',
    'src/core/settings/**/*.ts',
    '!src/**/*.test.ts',
    '!src/**/test-*.ts',
    '!src/**/*.test-helpers.ts'
  ],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  timeoutMS: 30_000,
  incremental: true,
  // One file per folder run (--incrementalFile bench/mutation/FOLDER.incremental.json), so runs of
  // different folders do not overwrite each other's results.
  incrementalFile: 'bench/mutation/all.incremental.json',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always'
}
