// 6. The soak: a simulated day of watched projects whose tasks start and end all day, the app's
// controller restarted from its files every few hours and once killed while writing state.json,
// and every notification it showed held against the transitions the reference service recorded;
// every task's end also forwarded to a loopback webhook, the app killed once with a forward under way.
import { STALE_MS } from '../src/core/settings/lock'
import { DEFAULT_POLLING_PREFS } from '../src/shared/settings'
import { type BenchOptions, check, type MeasureResult } from './result'
import { countSoak } from './soak-count'
import { runSoakDay, type SoakSetup } from './soak-day'
import { countForwards } from './soak-receiver'
import { round } from './stats'

const HOUR = 3_600_000
const MINUTE = 60_000

export const FULL_SOAK: SoakSetup = {
  hours: 24,
  projects: 50,
  tasks: 480,
  runningAtStart: 5,
  restartEveryMs: 3 * HOUR,
  downtimeEvery: 2,
  downtimeMs: 10 * MINUTE,
  killArmAtMs: 90 * MINUTE,
  killDowntimeMs: 2 * MINUTE,
  polling: DEFAULT_POLLING_PREFS,
  seed: 21,
  forward: { killArmAtMs: 4.5 * HOUR }
}

export const QUICK_SOAK: SoakSetup = {
  ...FULL_SOAK,
  hours: 6,
  projects: 10,
  tasks: 80,
  runningAtStart: 2,
  restartEveryMs: 2 * HOUR,
  killArmAtMs: 40 * MINUTE,
  forward: { killArmAtMs: 2.5 * HOUR }
}

/** The graceful restarts within the day (one every restartEveryMs before its end), the kill, and the kill mid-send when forwarding. */
export function plannedRestarts(setup: SoakSetup): number {
  const graceful = Math.ceil((setup.hours * HOUR) / setup.restartEveryMs) - 1
  return graceful + 1 + (setup.forward ? 1 : 0)
}

export async function runSoak(options: BenchOptions): Promise<MeasureResult> {
  const setup = options.quick ? QUICK_SOAK : FULL_SOAK
  const day = await runSoakDay(setup, options.log)
  const count = countSoak(
    day.transitions,
    day.notifications.map((n) => n.notification)
  )
  const kill = day.restarts.find((r) => r.kind === 'kill')
  const sendKill = day.restarts.find((r) => r.kind === 'kill-mid-send')
  const forwards = day.forwards ? countForwards(day.transitions, day.forwards) : null
  const readable = day.restarts.every((r) => r.filesReadable) && day.finalFilesReadable
  const heapGrowth = day.heap ? day.heap.toMb - day.heap.fromMb : Number.NaN
  const kinds: Record<string, number> = {}
  for (const { notification } of day.notifications) kinds[notification.kind] = (kinds[notification.kind] ?? 0) + 1
  const notes = [
    `heap_growth_mb: heap used after a full collection (global.gc, --expose-gc) at the end of the day minus the same one simulated hour after the last process started (after the kill), in that one process through every graceful restart after it (${day.heap ? `${day.heap.fromMin} to ${day.heap.toMin} simulated min` : 'not measured'}). A graceful restart stops the composition and builds a new one from a newly opened store in the same process; the kill is a real SIGKILL, after which a new process starts.`,
    `The kill: the app is stopped by SIGKILL inside its write of state.json (lock taken, half the new content in a temporary file, state.json itself not yet replaced), at the first such write after a notification once the kill is armed.`
  ]
  if (kill) {
    notes.push(
      `start_after_kill_ms: the start of the new process after the kill, inside that process (opening the files, where the dead process's lock on state.json is taken once ${STALE_MS / 1000} s stale, src/core/settings/lock.ts; composing; the first poll), against ${day.firstStart.inProcessMs} ms for the day's first start (a fresh process too, its projects set up as well); the target is that start plus the stale time plus 1 s. With the fork and loading the code: ${kill.startWallMs} ms, against ${day.firstStart.wallMs} ms. Where the day forwards, the new process is started once the killed one's outbox lock has gone stale (src/core/forward/outbox-lock.ts, up to 10 s; the log says how long).`
    )
  }
  if (!kill) notes.push('MISSING: the kill never happened (no state write after a notification once armed).')
  for (const r of day.restarts) if (r.problem) notes.push(`After the ${r.kind} restart at ${r.atMin} min: ${r.problem}`)
  if (count.missed.length > 0) notes.push(`Missed: ${count.missed.join(', ')}`)
  if (count.repeated.length > 0) notes.push(`Repeated: ${count.repeated.join(', ')}`)
  if (count.unexpected.length > 0) notes.push(`Told, but the service recorded no end: ${count.unexpected.join(', ')}`)
  if (count.wrongOutcome.length > 0)
    notes.push(`Told with another outcome than the service recorded: ${count.wrongOutcome.join(', ')}`)
  if (day.stillRunning > 0) notes.push(`${day.stillRunning} tasks had not ended by the end of the day (not counted).`)
  if (forwards) {
    notes.push(
      `Forwarding: every task's end goes to a JSON webhook on loopback (the app's own outbox and sender, the target set to always), through the restarts and the kills; once, when the receiver has a forward in hand and before it answers, the app is killed (SIGKILL) with the send under way. forwards_missed: task ends the service recorded that no delivered forward told; forwards_repeated: deliveries beyond one per task (the same key answered twice, or one task under two keys); the forward cut by the kill is sent again after the restart under the same Idempotency-Key (forwards_resent_after_kill).`
    )
    if (!sendKill) notes.push('MISSING: the kill mid-send never happened (no forward arrived once armed).')
    if (forwards.missed.length > 0) notes.push(`Forwards missed: ${forwards.missed.join(', ')}`)
    if (forwards.repeated.length > 0) notes.push(`Forwards repeated: ${forwards.repeated.join(', ')}`)
    if (forwards.unexpected.length > 0)
      notes.push(`Forwarded, but the service recorded no end: ${forwards.unexpected.join(', ')}`)
  }
  if (day.appErrors.length > 0)
    notes.push(`The app reported ${day.appErrors.length} errors, first: ${day.appErrors[0]}`)
  return {
    figures: {
      missed: count.missed.length,
      repeated: count.repeated.length,
      heap_growth_mb: round(heapGrowth, 2),
      restarts: day.restarts.length,
      start_after_kill_ms: kill ? kill.startInProcessMs : Number.NaN,
      ...(forwards
        ? {
            forwards_missed: forwards.missed.length,
            forwards_repeated: forwards.repeated.length,
            forwards_resent_after_kill: forwards.resentAfterKill
          }
        : {})
    },
    checks: [
      check('missed', count.missed.length, '<=', 0),
      check('repeated', count.repeated.length, '<=', 0),
      check('heap_growth_mb', heapGrowth, '<', 10),
      check('restarts', day.restarts.length, '>=', plannedRestarts(setup)),
      check('files_readable', readable ? 1 : 0, '>=', 1),
      check('killed_mid_write', kill ? 1 : 0, '>=', 1),
      check(
        'start_after_kill_ms',
        kill ? kill.startInProcessMs : Number.NaN,
        '<',
        day.firstStart.inProcessMs + STALE_MS + 1000
      ),
      check('unexpected', count.unexpected.length + count.wrongOutcome.length, '<=', 0),
      ...(forwards
        ? [
            check('forwards_missed', forwards.missed.length, '<=', 0),
            check('forwards_repeated', forwards.repeated.length, '<=', 0),
            check('forwards_unexpected', forwards.unexpected.length, '<=', 0),
            check('killed_mid_send', sendKill && forwards.resentAfterKill >= 1 ? 1 : 0, '>=', 1)
          ]
        : [])
    ],
    details: {
      simulated_hours: setup.hours,
      projects: setup.projects,
      tasks_started: setup.tasks,
      running_at_start: setup.runningAtStart,
      polling: setup.polling,
      transitions_recorded: count.expected,
      tasks_told: count.told,
      notifications: day.notifications.length,
      notifications_by_kind: kinds,
      still_running_at_end: day.stillRunning,
      restarts: day.restarts,
      first_start: day.firstStart,
      heap_mb: day.heap && {
        from: round(day.heap.fromMb, 2),
        to: round(day.heap.toMb, 2),
        from_min: day.heap.fromMin,
        to_min: day.heap.toMin
      },
      service_requests: day.serviceRequests,
      app_errors: day.appErrors.length,
      ...(forwards ? { forwards_delivered: forwards.delivered, forward_requests: day.forwards?.length ?? 0 } : {}),
      wall_s: round(day.wallMs / 1000)
    },
    notes
  }
}
