// Mutation testing (`npm run mutation`, scripts/mutation.ts): not part of `npm test`. Scoped to the
// shared rules and the core folders that decide things. A folder is mutated with its own tests only
// (MUTATION_TESTS, read by vitest.mutation.config.ts), so a run takes minutes, not hours:
//   npm run mutation -- notify            (one folder; `npm run mutation` runs them all in turn)
// Incremental: results are kept per folder in bench/mutation/FOLDER.incremental.json (a local cache,
// ignored by git), so a later run only tests mutants whose code or tests changed.

/**
 * The folders scored, by the name `npm run mutation -- NAME` takes: the files mutated and the tests
 * that judge them (the folder's own tests, plus the few elsewhere written for its rules).
 */
export const folders = {
  shared: { path: 'src/shared', mutate: ['src/shared/**/*.ts'], tests: ['src/shared/**/*.test.ts'] },
  client: {
    path: 'src/core/client',
    mutate: ['src/core/client/{client,http,fast,parse,service-error,retry,number-text,key-check,digest,schemas}.ts'],
    tests: ['src/core/client/**/*.test.ts']
  },
  'reference-service': {
    path: 'src/reference-service',
    mutate: ['src/reference-service/host-header.ts'],
    tests: ['src/reference-service/host-header.test.ts']
  },
  util: { path: 'src/core/util', mutate: ['src/core/util/iso-time.ts'], tests: ['src/core/util/iso-time.test.ts'] },
  monitor: { path: 'src/core/monitor', mutate: ['src/core/monitor/**/*.ts'], tests: ['src/core/monitor/**/*.test.ts'] },
  notify: { path: 'src/core/notify', mutate: ['src/core/notify/**/*.ts'], tests: ['src/core/notify/**/*.test.ts'] },
  budgets: { path: 'src/core/budgets', mutate: ['src/core/budgets/**/*.ts'], tests: ['src/core/budgets/**/*.test.ts'] },
  costs: { path: 'src/core/costs', mutate: ['src/core/costs/**/*.ts'], tests: ['src/core/costs/**/*.test.ts'] },
  secrets: {
    path: 'src/core/secrets',
    // keytar-store.ts and safeStorage are tested against a real keychain, outside this run: Stryker
    // runs tests in worker threads, whose process.env never reaches libsecret (it finds no D-Bus).
    mutate: ['src/core/secrets/{redact,choose,types,custody}.ts'],
    tests: [
      'src/core/secrets/{redact,choose,choose.fallbacks,pending,custody}.test.ts',
      'src/core/client/redact.http.test.ts'
    ]
  },
  forward: {
    path: 'src/core/forward',
    mutate: ['src/core/forward/**/*.ts'],
    // Not send.hostile.test.ts (a 256 MiB gzip bomb and an endless body over real sockets: seconds and
    // hundreds of MiB a run; send.test.ts states the read cap with a fake fetch), outbox.day.test.ts
    // (24 h of retries over sockets, 2 s each, reaching most mutants; outbox.rules.test.ts states the
    // bound exactly), outbox.kill and outbox.writers (child processes; outbox-lock, outbox-standby and
    // outbox.rules state the lock and the restart in process), nor apprise.test.ts (needs the apprise
    // binary; render.exact.test.ts states the requests).
    tests: [
      'src/core/forward/{add-target,add-target.generate,add-target.rules,away,escape,event,queue-events,forwarding,forwarding.rules,forwarding.secrets,outbox,outbox.retry,outbox.rules,outbox-file,outbox-lock,outbox-standby,outbox-standby.edges,presence-watch,render,render.exact,response,select,send,sign,target-url,target-url.rules,target-url.secrets,target-secrets}.test.ts'
    ]
  },
  // The agent services' adapters: status mapping, waiting detection, paging and etiquette, and what is news between
  // polls. Not transport.ts/records.ts/errors.ts (shared plumbing and wording), nor the registry (wiring).
  providers: {
    path: 'src/core/providers',
    mutate: [
      'src/core/providers/changes.ts',
      'src/core/providers/github/{mapping,client,etiquette}.ts',
      'src/core/providers/jules/{mapping,client,etiquette}.ts'
    ],
    tests: ['src/core/providers/**/*.test.ts']
  },
  // Devin's and Cursor's adapters, each apart so a run stays short: status mapping, waiting, paging (v3 cursor and
  // updated_after, v1 offset; Cursor's cursor), and Cursor's stream: SSE parsing, resume by Last-Event-ID, the pool.
  devin: {
    path: 'src/core/providers/devin',
    mutate: ['src/core/providers/devin/{mapping,client}.ts'],
    tests: ['src/core/providers/devin/**/*.test.ts']
  },
  cursor: {
    path: 'src/core/providers/cursor',
    mutate: ['src/core/providers/cursor/{mapping,client,stream,sse}.ts'],
    tests: ['src/core/providers/cursor/**/*.test.ts']
  },
  settings: {
    path: 'src/core/settings',
    mutate: ['src/core/settings/**/*.ts'],
    // Not concurrency.test.ts: 15 s a run (two writer processes), reaching every mutant of opening and
    // updating the store, where in its own process it only opens, updates and reads as the store
    // tests do; its rule (no update lost between processes) is the lock's, judged by lock.test.ts.
    tests: [
      'src/core/settings/{budget-edit,config-document,damaged-files,edit,file-error,lock,migrate,paths,private-files,schema,state-document,store}.test.ts'
    ]
  }
}

const name = process.env.MUTATION_FOLDER
const folder = name === undefined ? undefined : folders[name]
if (name !== undefined && folder === undefined) throw new Error(`no mutation folder named ${name}`)

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    ...(folder ? folder.mutate : Object.values(folders).flatMap((f) => f.mutate)),
    '!src/**/*.test.ts',
    '!src/**/test-*.ts',
    '!src/**/*.test-helpers.ts'
  ],
  coverageAnalysis: 'perTest',
  // Static mutants (code run once at module load: constants, tables) need the whole suite reloaded
  // for each; on two cores that is most of a folder's time. Left out, counted apart in the score.
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 30_000,
  incremental: true,
  // One file per folder, so runs of different folders do not overwrite each other's results.
  incrementalFile: `bench/mutation/${name ?? 'all'}.incremental.json`,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `reports/mutation/${name ?? 'all'}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always'
}
