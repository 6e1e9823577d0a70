// `npm run mutation [-- FOLDER... [stryker options]]`: runs Stryker over each named folder of
// stryker.config.mjs (all of them when none is named), one after another with the folder's own
// tests, and records each folder's score in bench/mutation.json. Options after the names (e.g.
// `--concurrency 2`) go to Stryker. A run narrowed with `--mutate FILES` updates those files' scores
// only, and the folder's totals are added up again from its files (scripts/mutation-score.ts).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { folders } from '../stryker.config.mjs'
import { type FolderScore, mergeFiles, type MutationReport, summarise } from './mutation-score'

const root = path.resolve(import.meta.dirname, '..')
const resultsFile = path.join(root, 'bench/mutation.json')
const args = process.argv.slice(2)
const names = args.filter((a) => !a.startsWith('-') && a in folders)
const strykerArgs = args.filter((a) => !names.includes(a))
const unknown = strykerArgs.find((a, i) => !a.startsWith('-') && !strykerArgs[i - 1]?.startsWith('-'))
if (unknown !== undefined) {
  console.error(`No mutation folder named ${unknown}; the folders: ${Object.keys(folders).join(', ')}`)
  process.exit(2)
}

/** The files a run is narrowed to (`--mutate A,B`, `-m A`, `--mutate=A`), or null for the folder's own. */
const mutateAt = strykerArgs.findIndex((a) => a === '--mutate' || a === '-m' || a.startsWith('--mutate='))
const narrowedTo = mutateAt < 0 ? null : (strykerArgs[mutateAt]!.split('=')[1] ?? strykerArgs[mutateAt + 1] ?? '')
const narrowed = narrowedTo !== null
// A range (`file.ts:10-20`) scores part of a file: nothing to record for the file as a whole.
const partial = narrowedTo !== null && /:\d/.test(narrowedTo)

let failed = false
for (const [name, folder] of Object.entries(folders).filter(([n]) => names.length === 0 || names.includes(n))) {
  const started = Date.now()
  const run = spawnSync('npx', ['stryker', 'run', ...strykerArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MUTATION_FOLDER: name, MUTATION_TESTS: JSON.stringify(folder.tests) }
  })
  const seconds = Math.round((Date.now() - started) / 1000)
  if (run.status !== 0) {
    console.error(`Stryker failed on ${folder.path} (exit ${run.status})`)
    failed = true
    continue
  }
  const report = JSON.parse(fs.readFileSync(path.join(root, `reports/mutation/${name}.json`), 'utf8')) as MutationReport
  if (partial) {
    console.log(`${folder.path}: a range of a file was mutated; nothing recorded (${seconds} s)`)
    continue
  }
  const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as {
    folders: Record<string, FolderScore & { date: string; seconds: number }>
  }
  const measured = summarise(report, folder.path)
  const previous = results.folders[folder.path]
  const summary = narrowed && previous ? mergeFiles(previous, measured) : measured
  results.folders[folder.path] = { date: new Date().toISOString().slice(0, 10), seconds, ...summary }
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`)
  for (const [file, s] of Object.entries(measured.perFile))
    console.log(`  ${file}: ${s.score} % (${s.mutants} mutants)`)
  console.log(`${folder.path}: ${summary.score} % (${summary.mutants} mutants, ${seconds} s)`)
}
process.exit(failed ? 1 : 0)
