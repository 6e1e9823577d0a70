// Carries out machine.ts's decisions through electron-updater (tests pass a real one built for plain Node). Installing
// waits for 'Restart to update' or a quit.
import type { UpdateState } from '../../shared/update'
import type { Clock, TimerHandle } from '../util/clock'
import { initialUpdateModel, stepUpdate, type UpdateInput, type UpdateModel } from './machine'

/** The part of electron-updater's AppUpdater used here. */
export interface AppUpdaterLike {
  autoDownload: boolean
  allowDowngrade: boolean
  autoInstallOnAppQuit: boolean
  checkForUpdates(): Promise<unknown>
  downloadUpdate(): Promise<unknown>
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void
  on(event: string, listener: (...args: never[]) => void): unknown
  removeListener(event: string, listener: (...args: never[]) => void): unknown
}

export interface Updater {
  readonly state: UpdateState
  start(): void
  checkNow(): void
  /** Quits and installs the downloaded version (only when one is ready). */
  install(): void
  setEnabled(enabled: boolean): void
  setOnline(online: boolean): void
  stop(): void
}

export function createUpdater(deps: {
  /** null where this build cannot update itself; `unavailable` says why. */
  updater: AppUpdaterLike | null
  unavailable?: string
  enabled: boolean
  clock: Clock
  onChange(state: UpdateState): void
  log(message: string): void
}): Updater {
  const { updater, clock } = deps
  let model: UpdateModel = initialUpdateModel({
    enabled: deps.enabled,
    ...(updater === null ? { unavailable: deps.unavailable ?? 'this build has no update feed' } : {})
  })
  let timer: TimerHandle | null = null
  let stopped = false

  function send(input: UpdateInput): void {
    if (stopped) return
    const before = model.view
    const step = stepUpdate(model, input, clock.now())
    model = step.model
    for (const effect of step.effects) {
      switch (effect.type) {
        case 'schedule':
          if (timer !== null) clock.clearTimeout(timer)
          timer =
            effect.at === null
              ? null
              : clock.setTimeout(() => ((timer = null), send({ type: 'due' })), effect.at - clock.now())
          break
        case 'check':
          // Failures arrive as the 'error' event as well; the promise's own rejection is only logged.
          void updater?.checkForUpdates().then(
            (result) => result === null && send({ type: 'error', message: 'the updater is not active in this build' }),
            (e: unknown) => deps.log(`update check: ${firstLineOf(e)}`)
          )
          break
        case 'download':
          void updater?.downloadUpdate().catch((e: unknown) => deps.log(`update download: ${firstLineOf(e)}`))
          break
        case 'install':
          deps.log('update: restarting to install')
          // Not silent where the installer has a UI (Windows); run the new version afterwards.
          updater?.quitAndInstall(false, true)
          break
      }
    }
    if (model.view !== before) deps.onChange(model.view)
  }

  const listeners: [string, (...args: never[]) => void][] = [
    ['checking-for-update', () => send({ type: 'checking' })],
    ['update-not-available', () => send({ type: 'not-available' })],
    ['update-available', (info: { version?: unknown }) => send({ type: 'available', version: versionOf(info) })],
    [
      'download-progress',
      (p: { percent?: unknown; transferred?: unknown; total?: unknown }) =>
        send({
          type: 'progress',
          percent: num(p?.percent),
          transferredBytes: num(p?.transferred),
          totalBytes: num(p?.total)
        })
    ],
    ['update-downloaded', (info: { version?: unknown }) => send({ type: 'downloaded', version: versionOf(info) })],
    [
      'error',
      (error: unknown) => {
        deps.log(`update: ${firstLineOf(error)}`)
        send({ type: 'error', message: firstLineOf(error) })
      }
    ]
  ]
  if (updater) {
    // The machine decides when to download; installing on quit is what the user expects of a
    // downloaded update, and it restarts nothing.
    updater.autoDownload = false
    updater.autoInstallOnAppQuit = true
    // Never an older version than the one running, whatever the feed says: a feed taken over (or a
    // stale mirror) must not be able to roll the app back to a release with a known hole.
    updater.allowDowngrade = false
    for (const [event, listener] of listeners) updater.on(event, listener)
  }

  return {
    get state() {
      return model.view
    },
    start: () => send({ type: 'start' }),
    checkNow: () => send({ type: 'check-now' }),
    install: () => send({ type: 'install' }),
    setEnabled: (enabled) => send({ type: 'set-enabled', enabled }),
    setOnline: (online) => send({ type: 'set-online', online }),
    stop() {
      stopped = true
      if (timer !== null) clock.clearTimeout(timer)
      timer = null
      if (updater) for (const [event, listener] of listeners) updater.removeListener(event, listener)
    }
  }
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

function versionOf(info: { version?: unknown } | undefined): string {
  const v = info?.version
  return typeof v === 'string' && /^[0-9A-Za-z.+-]{1,64}$/.test(v) ? v : 'unknown'
}

function firstLineOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return (
    message
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? 'unknown error'
  )
}
