// `npm run bench [-- --quick] [-- --only polling,latency]`: runs the measures, prints a table and
// writes bench/results.json. Figures from a shared machine are noisy: each is a median or a
// ratio taken within one run, and the machine and its load are recorded beside them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { runCursorLatency } from './cursor-latency'
import { runCursorStream } from './cursor-stream'
import { runGithubRequests } from './github-requests'
import { runIdle } from './idle'
import { runLatency } from './latency'
import { machineInfo } from './machine'
import { runPolling } from './polling'
import type { BenchOptions, Check, MeasureResult } from './result'
import { runScale } from './scale'
import { REPO_ROOT } from './service-process'
import { runSoak } from './soak'
import { runStartup } from './startup'
import { round } from './stats'
import { runWindow } from './window'

const MEASURES: Record<string, (options: BenchOptions) => Promise<MeasureResult>> = {
  polling: runPolling,
  latency: runLatency,
  scale: runScale,
  window: runWindow,
  idle: runIdle,
  soak: runSoak,
  startup: runStartup,
  'github-requests': runGithubRequests,
  'cursor-stream': runCursorStream,
  'cursor-latency': runCursorLatency
}

/**
 * The service each measure ran against, written beside its figures: the reference service answers
 * with ETags and compression unless told otherwise, and the real service documents neither.
 */
const CONDITIONS: Record<string, string> = {
  polling:
    'four service conditions (ETags on/off x compression on/off): each figure names its own under figure_conditions, the full set under conditions',
  latency: 'reference service on loopback, ETags and compression on (its defaults)',
  scale:
    'reference service in a child process on loopback, ETags on, compression on and off: each figure is named by its condition (compressed., plain.), described under figure_conditions',
  window: 'e2e test host (reference service with ETags and compression on) and headless Chromium',
  idle: 'reference service on loopback, ETags and compression on (its defaults)',
  soak: 'reference service on loopback, ETags and compression on (its defaults)',
  startup: 'the stand-in Electron, no service traffic: a keychain that answers at once and one that never answers',
  'github-requests':
    "the board over the GitHub adapter against the reference service's GitHub fake on loopback (ETags with free 304s, X-Poll-Interval 5 s, X-RateLimit-* for a user token's 5,000/h), on a manual clock: one simulated hour",
  'cursor-stream':
    "the Cursor fake on loopback (its real SSE stream, heartbeats every 15 s of its manual clock, compression on for JSON answers, never for streams), driven by the bench's process; the client alone in a child process: one simulated hour",
  'cursor-latency':
    "the board on the system clock over the Cursor account, against the Cursor fake on loopback in the same process (its stream's pump every 10 ms; held run states, ended by the bench): real time"
}

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run bench -- [--quick] [--only ${Object.keys(MEASURES).join(',')}]\n`)
  process.exit(2)
}

function readArgs(): { quick: boolean; only: string[] } {
  let values
  try {
    values = parseArgs({ options: { quick: { type: 'boolean' }, only: { type: 'string' } }, strict: true }).values
  } catch (e) {
    usage((e as Error).message)
  }
  const only =
    values.only === undefined
      ? Object.keys(MEASURES)
      : values.only
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
  const unknown = only.filter((name) => !(name in MEASURES))
  if (unknown.length > 0 || only.length === 0) usage(`Unknown measure: ${unknown.join(', ') || '(none given)'}.`)
  return { quick: values.quick ?? false, only }
}

const pad = (text: string, width: number): string =>
  text.length >= width ? text : text + ' '.repeat(width - text.length)

function table(results: Record<string, MeasureResult | { error: string }>): string {
  const rows: string[][] = [['measure', 'figure', 'value', 'target', 'met']]
  for (const [name, result] of Object.entries(results)) {
    if ('error' in result) {
      rows.push([name, 'error', result.error.split('\n')[0]?.slice(0, 80) ?? '', '', 'no'])
      continue
    }
    const checked = new Map(result.checks.map((c) => [c.figure, c]))
    for (const [figure, value] of Object.entries(result.figures)) {
      const c = checked.get(figure)
      rows.push([name, figure, String(value), c ? `${c.op} ${c.limit}` : '', c ? (c.met ? 'yes' : 'NO') : ''])
    }
    for (const c of result.checks.filter((c) => !(c.figure in result.figures))) {
      rows.push([name, c.figure, String(round(c.value, 2)), `${c.op} ${c.limit}`, c.met ? 'yes' : 'NO'])
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  return rows
    .map((r) =>
      r
        .map((cell, i) => pad(cell, widths[i]!))
        .join('  ')
        .trimEnd()
    )
    .join('\n')
}

function forFile(result: MeasureResult | { error: string }, seconds: number): Record<string, unknown> {
  if ('error' in result) return { error: result.error, met: false, seconds }
  const target: Record<string, string> = {}
  const met: Record<string, boolean> = {}
  for (const c of result.checks as Check[]) {
    target[c.figure] = `${c.op} ${c.limit}`
    met[c.figure] = c.met
  }
  return {
    ...result.figures,
    ...result.tables,
    target,
    met,
    all_met: result.checks.every((c) => c.met),
    details: result.details,
    notes: result.notes,
    seconds
  }
}

/** The last results, to merge into; an unreadable file is started afresh. */
function earlier(file: string): Record<string, unknown> {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

async function main(): Promise<void> {
  const args = readArgs()
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`)
  }
  const machine = machineInfo()
  log(
    `bench (${args.quick ? 'quick' : 'full'}) on ${machine.cpu_model}, ${machine.cores} cores, Node ${machine.node}, load ${machine.load_average_1m}`
  )
  const started = performance.now()
  const results: Record<string, MeasureResult | { error: string }> = {}
  const out = path.join(REPO_ROOT, 'bench/results.json')
  // --only reruns some measures: the others keep their figures from the last run, with its machine.
  const partial = args.only.length < Object.keys(MEASURES).length && existsSync(out)
  const file: Record<string, unknown> = {
    ...(partial ? earlier(out) : {}),
    machine,
    mode: args.quick ? 'quick' : 'full'
  }
  for (const name of args.only) {
    const began = performance.now()
    try {
      results[name] = await (MEASURES[name] as (o: BenchOptions) => Promise<MeasureResult>)({ quick: args.quick, log })
    } catch (e) {
      results[name] = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) }
      log(`${name}: FAILED: ${(results[name] as { error: string }).error}`)
    }
    const seconds = round((performance.now() - began) / 1000)
    log(`${name}: ${seconds} s`)
    for (const note of 'notes' in (results[name] as object) ? (results[name] as MeasureResult).notes : [])
      log(`${name}: ${note}`)
    // Each measure says when it ran, on what and under what load: a merged file holds several runs.
    file[name] = {
      ...forFile(results[name] as MeasureResult, seconds),
      condition: CONDITIONS[name],
      ran_at: new Date().toISOString(),
      cpu_model: machine.cpu_model,
      load_average_1m: round(os.loadavg()[0] ?? 0, 2)
    }
  }
  file.total_seconds = round((performance.now() - started) / 1000)
  file.load_average_after = round(os.loadavg()[0] ?? 0, 2)
  writeFileSync(out, `${JSON.stringify(file, null, 2)}\n`)
  process.stdout.write(
    `${table(results)}\n\ntotal ${file.total_seconds} s; results in ${path.relative(process.cwd(), out) || out}\n`
  )
  // Every measure ran and wrote its figures: a missed target is a finding, not a crash.
  process.exitCode = Object.values(results).some((r) => 'error' in r) ? 1 : 0
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})
