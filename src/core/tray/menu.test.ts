import { describe, expect, it } from 'vitest'
import { agentTask, appState, jules, project } from './fixtures.test-helpers'
import type { TrayMenuItem } from './menu'
import { buildTrayMenu, createMenuMemo, MAX_TASKS_PER_KIND, menuText } from './menu'
import { summariseTray, trayTooltip } from './state'
import type { TrayTask } from './tasks'

function menu(app = appState([]), tasks: Record<string, TrayTask[]> = {}, online = true): TrayMenuItem[] {
  return buildTrayMenu({
    app,
    summary: summariseTray(app, online),
    online,
    tasksOf: (_connectionId, id) => tasks[id] ?? []
  })
}

const labels = (items: TrayMenuItem[]): string[] => items.map((i) => (i.kind === 'separator' ? '---' : i.label))

function action(items: TrayMenuItem[], label: string): Extract<TrayMenuItem, { kind: 'action' }> {
  const found = items.find((i) => i.kind === 'action' && i.label === label)
  if (!found || found.kind !== 'action') throw new Error(`no action ${label} in ${labels(items).join(' | ')}`)
  return found
}

describe('buildTrayMenu', () => {
  it('always has the fixed actions, in order', () => {
    const items = menu()
    expect(labels(items)).toEqual([
      'Nothing to watch yet',
      '---',
      'No projects watched',
      '---',
      'Open Window',
      'Refresh',
      'Pause Notifications for an Hour',
      '---',
      'Preferences…',
      'Open Logs',
      'Quit Agent Tray'
    ])
    expect(action(items, 'Quit Agent Tray').action).toEqual({ type: 'quit' })
    expect(action(items, 'Open Logs').action).toEqual({ type: 'open-logs' })
    expect(action(items, 'Preferences…').action).toEqual({ type: 'preferences' })
    expect(action(items, 'Pause Notifications for an Hour').action).toEqual({
      type: 'pause-notifications',
      minutes: 60
    })
  })

  it('offers Restart to Update once a version is downloaded, and shows a download in progress', () => {
    const ready = menu(appState([], { update: { phase: 'ready', version: '1.4.0' } }))
    expect(action(ready, 'Restart to Update (1.4.0)').action).toEqual({ type: 'install-update' })
    const downloading = menu(
      appState([], {
        update: { phase: 'downloading', version: '1.4.0', percent: 37.6, transferredBytes: 376, totalBytes: 1000 }
      })
    )
    expect(labels(downloading)).toContain('Downloading version 1.4.0: 37%')
    expect(labels(downloading).some((l) => l.startsWith('Restart to Update'))).toBe(false)
    for (const update of [
      { phase: 'checking' } as const,
      { phase: 'error', message: 'x', at: '2026-01-01T00:00:00Z', nextCheckAt: null } as const
    ]) {
      expect(labels(menu(appState([], { update }))).some((l) => /Update|Download/.test(l))).toBe(false)
    }
  })

  it('offers to resume notifications while they are paused', () => {
    const items = menu(
      appState([], { monitor: { paused: false, notificationsPausedUntil: '2026-01-01T01:00:00.000Z' } })
    )
    expect(action(items, 'Resume Notifications').action).toEqual({ type: 'resume-notifications' })
    expect(labels(items)).not.toContain('Pause Notifications for an Hour')
  })

  it('disables Refresh offline or with nothing to poll', () => {
    expect(action(menu(appState([])), 'Refresh').enabled).toBe(false)
    expect(action(menu(appState([project('a')]), {}, false), 'Refresh').enabled).toBe(false)
    expect(action(menu(appState([project('a')], { activeConnectionId: null })), 'Refresh').enabled).toBe(false)
    expect(action(menu(appState([project('a')])), 'Refresh').enabled).toBe(true)
  })

  it('lists each watched project with its running and failed tasks, each opening that task', () => {
    const app = appState([
      project('p1', { running: 1, failed: 1, project: null }),
      project('p2', { budgetUsd: 1, costTotalUsd: 3 })
    ])
    const items = menu(app, {
      p1: [
        { taskId: 't-done', name: 'Done one', status: 'completed' },
        { taskId: 't-fail', name: 'Broken build', status: 'failed' },
        { taskId: 't-run', name: 'Add login', status: 'in_progress' }
      ]
    })
    const subs = items.filter((i) => i.kind === 'submenu')
    expect(subs.map((s) => s.label)).toEqual(['Project p1 (1 running, 1 failed)', 'Project p2 (over budget)'])
    const p1 = subs[0]!
    if (p1.kind !== 'submenu') throw new Error('not a submenu')
    expect(labels(p1.items)).toEqual(['Running (1)', 'Add login', 'Failed (1)', 'Broken build', '---', 'Open Window'])
    expect(action(p1.items, 'Add login').action).toEqual({
      type: 'open-task',
      projectId: 'p1',
      taskId: 't-run',
      connectionId: 'c1'
    })
    expect(action(p1.items, 'Broken build').action).toEqual({
      type: 'open-task',
      projectId: 'p1',
      taskId: 't-fail',
      connectionId: 'c1'
    })
    const p2 = subs[1]!
    if (p2.kind !== 'submenu') throw new Error('not a submenu')
    expect(labels(p2.items)).toEqual(['Nothing running or failed', '---', 'Open Window'])
  })

  it('lists running before waiting tasks, and tasks of one status by name', () => {
    const [sub] = menu(appState([project('p', { running: 3, failed: 2 })]), {
      p: [
        { taskId: 't1', name: 'Alpha', status: 'todo' },
        { taskId: 't2', name: 'Zed', status: 'in_progress' },
        { taskId: 't3', name: 'Yak', status: 'failed' },
        { taskId: 't4', name: 'Beta', status: 'in_progress' },
        { taskId: 't5', name: 'Apple', status: 'failed' }
      ]
    }).filter((i) => i.kind === 'submenu')
    if (!sub || sub.kind !== 'submenu') throw new Error('no submenu')
    expect(labels(sub.items)).toEqual([
      'Running (3)',
      'Beta',
      'Zed',
      'Alpha',
      'Failed (2)',
      'Apple',
      'Yak',
      '---',
      'Open Window'
    ])
  })

  it('trusts the larger of the counted and the known tasks, and caps long lists', () => {
    const many: TrayTask[] = Array.from({ length: MAX_TASKS_PER_KIND + 3 }, (_, i) => ({
      taskId: `t${i}`,
      name: `Task ${String(i).padStart(2, '0')}`,
      status: 'in_progress'
    }))
    const [sub] = menu(appState([project('p', { running: 20, failed: 2 })]), { p: many }).filter(
      (i) => i.kind === 'submenu'
    )
    if (!sub || sub.kind !== 'submenu') throw new Error('no submenu')
    const l = labels(sub.items)
    expect(l[0]).toBe('Running (20)')
    expect(l.filter((x) => x.startsWith('Task '))).toHaveLength(MAX_TASKS_PER_KIND)
    expect(l).toContain('12 more…')
    expect(l).toContain('Failed (2)')
    expect(l).toContain('2 more…')
  })

  it('uses the service name over the remembered one and marks an unreachable project', () => {
    const app = appState([
      project('p', {
        project: { id: 'p', name: 'R&D site' } as never,
        health: { state: 'error', error: { kind: 'network', message: 'x' }, since: 'a', nextPollAt: 'b' }
      })
    ])
    const items = menu(app)
    expect(items[0]).toEqual({ kind: 'label', label: '1 project cannot be reached' })
    expect(items.some((i) => i.kind === 'submenu' && i.label === 'R&&D site (unreachable)')).toBe(true)
  })

  it('names a project known by neither name by its id, as every surface does', () => {
    const unnamed = project('p-7f3a', { project: { id: 'p-7f3a', name: '' } as never })
    unnamed.watched.name = ''
    const items = menu(appState([unnamed]))
    expect(items.some((i) => i.kind === 'submenu' && i.label === 'p-7f3a')).toBe(true)
  })

  it('says what the state is on the first line', () => {
    expect(
      labels(
        menu(
          appState([project('a', { failed: 2, newFailed: ['t'], budgetUsd: 0, costTotalUsd: 1, budgetCrossed: true })])
        )
      )[0]
    ).toBe('1 newly failed, 1 budget crossed')
    // Failures already seen are told in the project's line, not as the state.
    const seen = labels(menu(appState([project('a', { failed: 2 })])))
    expect(seen[0]).toBe('All quiet')
    expect(seen).toContain('Project a (2 failed)')
    expect(labels(menu(appState([project('a', { running: 3 })])))[0]).toBe('3 running')
    expect(labels(menu(appState([project('a', { running: 3 })]), {}, false))[0]).toBe('Offline: polling paused')
    expect(labels(menu(appState([project('a')])))[0]).toBe('All quiet')
  })
})

describe('several accounts', () => {
  const two = (projects: ReturnType<typeof project>[]) =>
    appState(projects, {
      connections: [
        {
          id: 'c1',
          name: 'Work',
          baseUrl: 'https://a.example',
          publishingDomain: '',
          hasKey: true,
          problem: null,
          notifications: { muted: false, pausedUntil: null },
          agentHealth: null
        },
        {
          id: 'c2',
          name: 'Personal',
          baseUrl: 'https://a.example',
          publishingDomain: '',
          hasKey: true,
          problem: null,
          notifications: { muted: false, pausedUntil: null },
          agentHealth: null
        }
      ]
    })

  it("lists each connection's projects under its name, and opens tasks on the right one", () => {
    const items = menu(two([project('p1', { running: 1 }), project('p2', { connectionId: 'c2' })]), {
      p1: [{ taskId: 't', name: 'Run', status: 'in_progress' }]
    })
    expect(labels(items).slice(2, 6)).toEqual(['Work', 'Project p1 (1 running)', 'Personal', 'Project p2'])
    const [sub] = items.filter((i) => i.kind === 'submenu')
    if (!sub || sub.kind !== 'submenu') throw new Error('no submenu')
    expect(action(sub.items, 'Run').action).toEqual({
      type: 'open-task',
      projectId: 'p1',
      taskId: 't',
      connectionId: 'c1'
    })
  })

  it('names the connection that cannot be reached, in the state line and the tooltip', () => {
    const down = {
      state: 'error' as const,
      error: { kind: 'auth' as const, message: 'rejected' },
      since: 'a',
      nextPollAt: 'b'
    }
    const app = two([project('p1'), project('p2', { connectionId: 'c2', health: down })])
    expect(menu(app)[0]).toEqual({ kind: 'label', label: 'Personal: 1 project cannot be reached' })
    expect(trayTooltip(summariseTray(app, true))).toBe('Agent Tray — 1 project unreachable (Personal)')
    // One connection: no names needed.
    expect(menu(appState([project('p2', { health: down })]))[0]).toEqual({
      kind: 'label',
      label: '1 project cannot be reached'
    })
  })
})

describe('menuText', () => {
  it('keeps labels on one short line and shows & literally', () => {
    expect(menuText('  a\n b  ')).toBe('a b')
    expect(menuText('x'.repeat(100))).toHaveLength(60)
    expect(menuText('Tom & Jerry')).toBe('Tom && Jerry')
  })

  it('writes out control characters and bidi overrides from a hostile name', () => {
    expect(menuText('Shop\u001b]0;pwned\u0007 \u009b2J gpj.\u202eexe')).toBe(
      'Shop\\u001b]0;pwned\\u0007 \\u009b2J gpj.\\u202eexe'
    )
  })
})

describe('createMenuMemo', () => {
  it('rebuilds only when the model changes', () => {
    let builds = 0
    const memo = createMenuMemo((items) => ({ n: ++builds, items }))
    const a = menu(appState([project('a', { running: 1 })]))
    const first = memo(a)
    expect(first.rebuilt).toBe(true)
    // An equal model built from a fresh state object is still the same menu.
    const again = memo(menu(appState([project('a', { running: 1 })])))
    expect(again.rebuilt).toBe(false)
    expect(again.value).toBe(first.value)
    const changed = memo(menu(appState([project('a', { running: 2 })])))
    expect(changed.rebuilt).toBe(true)
    expect(builds).toBe(2)
  })
})

describe('what needs you', () => {
  it('comes first: the state line says which account and why, and each waiting task opens from the menu', () => {
    const app = appState([project('a', { running: 1 })], {
      ...jules(),
      agentTasks: [
        agentTask('j1', 'waiting', { updatedAt: '2026-01-01T10:00:00.000Z' }),
        agentTask('j2', 'waiting', { title: 'Fix the build & ship', updatedAt: '2026-01-01T10:05:00.000Z' })
      ]
    })
    const items = menu(app)
    expect(labels(items).slice(0, 5)).toEqual([
      '2 tasks need you',
      '---',
      "Jules · Personal: approve the plan for 'Add dark mode'",
      "Jules · Personal: approve the plan for 'Fix the build && shi…",
      '---'
    ])
    expect(action(items, "Jules · Personal: approve the plan for 'Add dark mode'").action).toEqual({
      type: 'open-task',
      projectId: 'octo/shop',
      taskId: 'j1',
      connectionId: 'j'
    })
  })

  it('lists at most a few, then how many more; nothing when no task waits', () => {
    const many = Array.from({ length: MAX_TASKS_PER_KIND + 2 }, (_, i) => agentTask(`w${i}`, 'waiting'))
    const items = labels(menu(appState([], { ...jules(), agentTasks: many })))
    expect(items.filter((l) => l.startsWith('Jules · Personal: approve'))).toHaveLength(MAX_TASKS_PER_KIND)
    expect(items).toContain('2 more…')
    const one = labels(menu(appState([], { ...jules(), agentTasks: [agentTask('w', 'waiting')] })))
    expect(one.slice(0, 3)).toEqual([
      '1 task needs you',
      '---',
      "Jules · Personal: approve the plan for 'Add dark mode'"
    ])
    const none = labels(menu(appState([], { ...jules(), agentTasks: [agentTask('r', 'running')] })))
    expect(none[0]).toBe('1 running')
    expect(none.some((l) => l.includes('needs you') || l.startsWith('Jules'))).toBe(false)
  })
})
