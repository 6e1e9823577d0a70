// AppState builders for the tray tests.
import { budgetLevel } from '../../shared/budgets'
import type { AgentTaskView, AppState, ProjectView } from '../../shared/ipc'
import type { ProviderStatus } from '../../shared/provider'

export function project(
  id: string,
  over: Partial<ProjectView> & {
    running?: number
    failed?: number
    budgetUsd?: number | null
    muted?: boolean
    newFailed?: string[]
    budgetCrossed?: boolean
  } = {}
): ProjectView {
  const {
    running = 0,
    failed = 0,
    budgetUsd = null,
    muted = false,
    newFailed = [],
    budgetCrossed = false,
    ...rest
  } = over
  return {
    connectionId: 'c1',
    watched: { projectId: id, name: `Project ${id}`, muted, addedAt: '2026-01-01T00:00:00.000Z' },
    project: null,
    health: { state: 'ok', polledAt: '2026-01-01T00:00:00.000Z' },
    counts: { running, failed, total: running + failed },
    lastActivityAt: null,
    costTodayUsd: 0,
    costTotalUsd: 0,
    budgetUsd,
    attention: { failedTaskIds: newFailed, budgetCrossed },
    ...rest
  }
}

export function appState(projects: ProjectView[], over: Partial<AppState> = {}): AppState {
  return {
    connections: [
      {
        id: 'c1',
        name: 'Work',
        baseUrl: 'https://agents.example.com',
        publishingDomain: '',
        hasKey: true,
        problem: null,
        notifications: { muted: false, pausedUntil: null },
        agentHealth: null
      }
    ],
    activeConnectionId: 'c1',
    projects,
    monitor: { paused: false, notificationsPausedUntil: null },
    secrets: { backend: 'keychain', detail: '' },
    notices: [],
    demo: false,
    clockLocale: null,
    update: { phase: 'idle', checks: true, lastCheckedAt: null, nextCheckAt: null, offline: false },
    desktopNotes: [],
    services: [],
    agentTasks: [],
    agentCosts: [],
    // A project's budgetUsd stands for its total budget, with the state its total cost gives.
    budgets: projects.flatMap((p) =>
      p.budgetUsd === null
        ? []
        : [
            {
              connectionId: p.connectionId,
              budget: {
                id: `total-${p.watched.projectId}`,
                projectId: p.watched.projectId,
                period: 'total' as const,
                limitUsd: p.budgetUsd,
                warnRatio: 0.8
              },
              periodKey: 'total',
              spentUsd: p.costTotalUsd,
              estimatedUsd: 0,
              state: budgetLevel(p.costTotalUsd, { limitUsd: p.budgetUsd, warnRatio: 0.8 }),
              burnUsdPerHour: 0,
              projectedUsd: null
            }
          ]
    ),
    ...over
  }
}

/** A Jules account 'Personal' (id 'j') beside the Workser one, and the services a state lists. */
export function jules(): Pick<AppState, 'connections' | 'services'> {
  const workser = appState([]).connections[0]!
  return {
    connections: [
      workser,
      { ...workser, id: 'j', name: 'Personal', baseUrl: 'https://jules.example', service: 'jules' }
    ],
    services: [
      {
        kind: 'jules',
        displayName: 'Jules',
        defaultBaseUrl: 'https://jules.example',
        keyPage: 'https://jules.example/keys',
        capabilities: {
          steps: true,
          cost: false,
          publish: false,
          projects: false,
          approve: true,
          reply: true,
          startTask: false
        }
      }
    ]
  }
}

/** A task of the Jules account: waiting tasks wait for a plan's approval (or, named 'Fix the build', a question). */
export function agentTask(id: string, status: ProviderStatus, over: Partial<AgentTaskView> = {}): AgentTaskView {
  const question = over.title === 'Fix the build'
  return {
    id,
    title: 'Add dark mode',
    status,
    serviceStatus: status.toUpperCase(),
    waiting: status === 'waiting' ? { kind: question ? 'question' : 'plan_approval', text: 'Plan', where: null } : null,
    links: { page: null, pullRequests: [], preview: null },
    project: question ? null : { id: 'octo/shop', name: 'octo/shop' },
    createdAt: null,
    updatedAt: null,
    costs: [],
    connectionId: 'j',
    service: 'jules',
    unseenFailure: false,
    projectMuted: false,
    ...over
  }
}
