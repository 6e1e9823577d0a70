import { describe, expect, it } from 'vitest'
import type { MonitorEvent } from '../../shared/monitor'
import { appState, project } from './fixtures.test-helpers'
import { createTrayModel, type TrayActions, type TrayView } from './model'

function rig() {
  const calls: string[] = []
  const views: TrayView[] = []
  const actions: TrayActions = {
    showWindow: () => calls.push('show'),
    openTask: (p, t) => calls.push(`task ${p}/${t}`),
    openSettings: () => calls.push('settings'),
    pollNow: async () => void calls.push('poll'),
    pauseNotifications: async (m) => void calls.push(`pause ${m}`),
    installUpdate: () => calls.push('install'),
    openLogs: async () => void calls.push('logs'),
    quit: () => calls.push('quit'),
    log: (m) => calls.push(`log ${m}`)
  }
  const model = createTrayModel({ initial: appState([]), actions, render: (v) => views.push(v) })
  return { model, calls, views }
}

const added = (projectId: string, taskId: string, status: 'in_progress' | 'failed'): MonitorEvent => ({
  kind: 'task-added',
  connectionId: 'c1',
  projectId,
  at: '2026-01-01T00:00:00.000Z',
  taskId,
  taskName: `Task ${taskId}`,
  status
})

describe('the tray model', () => {
  it('draws at once, then again on each change of state, tasks or network', () => {
    const r = rig()
    expect(r.views).toHaveLength(1)
    expect(r.views[0]).toMatchObject({ state: 'idle', tooltip: 'Agent Tray — no projects watched' })
    r.model.setState(appState([project('p1', { running: 1 })]))
    expect(r.model.view.state).toBe('running')
    r.model.takeEvent(added('p1', 't1', 'in_progress'))
    const submenu = r.model.view.menu.find((i) => i.kind === 'submenu')
    expect(
      submenu && submenu.kind === 'submenu' ? submenu.items.map((i) => ('label' in i ? i.label : i.kind)) : []
    ).toContain('Task t1')
    r.model.setOnline(false)
    expect(r.model.view.state).toBe('offline')
    r.model.setOnline(false)
    expect(r.views).toHaveLength(4)
  })

  it('forgets the tasks of a project no longer watched', () => {
    const r = rig()
    r.model.setState(appState([project('p1', { running: 1 })]))
    r.model.takeEvent(added('p1', 't1', 'in_progress'))
    r.model.setState(appState([]))
    r.model.setState(appState([project('p1')]))
    const submenu = r.model.view.menu.find((i) => i.kind === 'submenu')
    expect(JSON.stringify(submenu)).not.toContain('Task t1')
  })

  it('does what each menu action says, and logs a failed one instead of throwing', async () => {
    const r = rig()
    r.model.perform({ type: 'open-window' })
    r.model.perform({ type: 'open-task', projectId: 'p', taskId: 't' })
    r.model.perform({ type: 'preferences' })
    r.model.perform({ type: 'poll-now' })
    r.model.perform({ type: 'pause-notifications', minutes: 60 })
    r.model.perform({ type: 'resume-notifications' })
    r.model.perform({ type: 'install-update' })
    r.model.perform({ type: 'open-logs' })
    r.model.perform({ type: 'quit' })
    await Promise.resolve()
    expect(r.calls).toEqual([
      'show',
      'task p/t',
      'settings',
      'poll',
      'pause 60',
      'pause null',
      'install',
      'logs',
      'quit'
    ])
    const failing = createTrayModel({
      initial: appState([]),
      render: () => {},
      actions: {
        ...({} as TrayActions),
        pollNow: () => Promise.reject(new Error('offline\nmore')),
        // The first line said, as every error line of the app is (firstLine): a blank one skipped.
        pauseNotifications: () => Promise.reject(new Error('\n  settings locked\nat write')),
        log: (m) => r.calls.push(m)
      }
    })
    failing.perform({ type: 'poll-now' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(r.calls.at(-1)).toBe('tray poll: offline')
    failing.perform({ type: 'pause-notifications', minutes: 60 })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(r.calls.at(-1)).toBe('tray pause: settings locked')
  })
})
