import { EventEmitter } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MANUAL_START_TIME, startReferenceService } from '../../reference-service'
import { createServiceClient } from '../client'
import { createSessionSecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import { ManualClock } from '../util/clock'
import { createAppController } from './controller'
import type { PowerEvents, StartOnlineWatcher } from './lifecycle'
import { wireLifecycle } from './lifecycle'

/** Stands in for Electron's powerMonitor: a plain emitter. */
function fakePowerMonitor() {
  const emitter = new EventEmitter()
  return {
    power: emitter as unknown as PowerEvents,
    emit: (e: string) => emitter.emit(e),
    count: () => emitter.eventNames().length
  }
}

/** Stands in for the online watcher: the test says when the network changes. */
function fakeOnline(initial = true) {
  let notify: ((online: boolean) => void) | null = null
  let state = initial
  let last: boolean | null = null
  const report = () => {
    if (state !== last) {
      last = state
      notify?.(state)
    }
  }
  const state$ = { checks: 0, stopped: false }
  const start: StartOnlineWatcher = (onChange) => {
    notify = onChange
    report()
    return {
      check: () => {
        state$.checks++
        report()
      },
      stop: () => void (state$.stopped = true)
    }
  }
  return { start, state$, set: (v: boolean) => ((state = v), report()), setQuietly: (v: boolean) => (state = v) }
}

function recordingController() {
  const calls: string[] = []
  return {
    calls,
    controller: {
      suspend: () => void calls.push('suspend'),
      resume: () => void calls.push('resume'),
      setOnline: (v: boolean) => void calls.push(`online:${v}`)
    }
  }
}

describe('wireLifecycle', () => {
  it('suspends on suspend, and resumes exactly once on a (doubled) resume', () => {
    const { power, emit } = fakePowerMonitor()
    const online = fakeOnline()
    const { calls, controller } = recordingController()
    wireLifecycle({
      powerMonitor: power,
      watchOnline: online.start,
      controller,
      onOnlineChange: () => {},
      log: () => {}
    })
    expect(calls).toEqual(['online:true'])
    emit('suspend')
    expect(calls).toEqual(['online:true', 'suspend'])
    emit('resume')
    emit('resume')
    expect(calls).toEqual(['online:true', 'suspend', 'resume'])
    expect(online.state$.checks).toBe(2)
    // A resume with no suspend before it does nothing to polling.
    emit('resume')
    expect(calls.filter((c) => c === 'resume')).toHaveLength(1)
  })

  it('learns the network after waking before it resumes', () => {
    const { power, emit } = fakePowerMonitor()
    const online = fakeOnline()
    const { calls, controller } = recordingController()
    wireLifecycle({
      powerMonitor: power,
      watchOnline: online.start,
      controller,
      onOnlineChange: () => {},
      log: () => {}
    })
    emit('suspend')
    online.setQuietly(false)
    emit('resume')
    expect(calls).toEqual(['online:true', 'suspend', 'online:false', 'resume'])
  })

  it('passes offline and online on to the controller and the tray', () => {
    const { power } = fakePowerMonitor()
    const online = fakeOnline()
    const { calls, controller } = recordingController()
    const tray: boolean[] = []
    wireLifecycle({
      powerMonitor: power,
      watchOnline: online.start,
      controller,
      onOnlineChange: (v) => tray.push(v),
      log: () => {}
    })
    online.set(false)
    online.set(false)
    online.set(true)
    expect(calls).toEqual(['online:true', 'online:false', 'online:true'])
    expect(tray).toEqual([true, false, true])
  })

  it('does nothing to polling when the screen locks or unlocks', () => {
    const { power, emit } = fakePowerMonitor()
    const online = fakeOnline()
    const { calls, controller } = recordingController()
    wireLifecycle({
      powerMonitor: power,
      watchOnline: online.start,
      controller,
      onOnlineChange: () => {},
      log: () => {}
    })
    emit('lock-screen')
    emit('unlock-screen')
    expect(calls).toEqual(['online:true'])
  })

  it('removes every listener and stops the watcher when disposed', () => {
    const { power, emit, count } = fakePowerMonitor()
    const online = fakeOnline()
    const { calls, controller } = recordingController()
    const dispose = wireLifecycle({
      powerMonitor: power,
      watchOnline: online.start,
      controller,
      onOnlineChange: () => {},
      log: () => {}
    })
    expect(count()).toBe(4)
    dispose()
    expect(count()).toBe(0)
    expect(online.state$.stopped).toBe(true)
    emit('suspend')
    expect(calls).toEqual(['online:true'])
  })
})

describe('wireLifecycle with the real controller and the reference service', () => {
  it('polls nothing while asleep and every watched project once right after waking', async () => {
    const apiKey = 'lifecycle-key-1'
    const service = await startReferenceService({ apiKey, port: 0, seed: 3, manualClock: true })
    const dir = await mkdtemp(join(tmpdir(), 'agent-tray-lifecycle-'))
    const taskLists: string[] = []
    const clock = new ManualClock(Date.parse(MANUAL_START_TIME))
    const controller = createAppController({
      settings: await openSettings({ dir }),
      secrets: createSessionSecretStore('Kept in memory for this test.'),
      createClient: (connection, key) =>
        createServiceClient({
          baseUrl: connection.baseUrl,
          apiKey: key,
          retry: { retries: 0 },
          onResponse: (r) => {
            if (/\/projects\/[^/]+\/tasks$/.test(r.path.split('?')[0]!)) taskLists.push(r.path)
          }
        }),
      openExternal: async () => {},
      notify: () => {},
      clock,
      random: () => 0.5,
      tz: 0
    })
    const { power, emit } = fakePowerMonitor()
    const online = fakeOnline()
    let dispose = (): void => {}
    try {
      await controller.start()
      await controller.handlers['connection:save']({
        connection: { name: 'Local', baseUrl: service.url, publishingDomain: service.publishingDomain },
        apiKey
      })
      const projects = [
        service.control.createProject({ name: 'One' }).id,
        service.control.createProject({ name: 'Two' }).id
      ]
      for (const projectId of projects) await controller.handlers['project:watch']({ projectId })
      await controller.handlers['monitor:poll-now']()
      dispose = wireLifecycle({
        powerMonitor: power,
        watchOnline: online.start,
        controller,
        onOnlineChange: () => {},
        log: () => {}
      })

      const before = taskLists.length
      emit('suspend')
      expect(controller.getState().monitor.paused).toBe(true)
      // Asleep for an hour, far past every interval: had the monitor not paused, its polls fell due
      // and it would not be idle until they were done.
      await clock.advance(60 * 60_000)
      await controller.monitor?.idle()
      expect(taskLists.length).toBe(before)

      emit('resume')
      emit('resume')
      expect(controller.getState().monitor.paused).toBe(false)
      // Idle once the catch-up round is done; the clock is manual, so nothing more comes on its own.
      await controller.monitor?.idle()
      expect(taskLists.slice(before).toSorted()).toEqual(projects.map((id) => `/projects/${id}/tasks`).toSorted())
    } finally {
      dispose()
      await controller.stop()
      await service.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
