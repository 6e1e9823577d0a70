import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRoute, type Route, routeHash, sectionOf } from './route'

describe('parseRoute', () => {
  it('reads every route', () => {
    expect(parseRoute('')).toEqual({ name: 'now' })
    expect(parseRoute('#/')).toEqual({ name: 'now' })
    expect(parseRoute('#/now')).toEqual({ name: 'now' })
    expect(parseRoute('#/projects')).toEqual({ name: 'projects' })
    expect(parseRoute('#/projects/p1')).toEqual({ name: 'project', projectId: 'p1' })
    expect(parseRoute('#/projects/p1/tasks/t9')).toEqual({ name: 'task', projectId: 'p1', taskId: 't9' })
    expect(parseRoute('#/costs')).toEqual({ name: 'costs' })
    expect(parseRoute('#/settings/')).toEqual({ name: 'settings' })
    expect(parseRoute('#/settings/accounts/c-1')).toEqual({ name: 'settings', account: 'c-1' })
    expect(parseRoute('#/setup')).toEqual({ name: 'setup' })
    expect(parseRoute('#/accounts/c-1/tasks/t9')).toEqual({ name: 'agent-task', connectionId: 'c-1', taskId: 't9' })
    expect(parseRoute('#/accounts/c-1')).toEqual({ name: 'unknown', hash: '#/accounts/c-1' })
  })

  it('decodes ids', () => {
    expect(parseRoute('#/projects/a%2Fb')).toEqual({ name: 'project', projectId: 'a/b' })
  })

  it('keeps what it does not know, without throwing', () => {
    expect(parseRoute('#/nope')).toEqual({ name: 'unknown', hash: '#/nope' })
    expect(parseRoute('#/projects/%E0%A4%A')).toEqual({ name: 'unknown', hash: '#/projects/%E0%A4%A' })
    expect(parseRoute('#/projects/p1/steps/x')).toEqual({ name: 'unknown', hash: '#/projects/p1/steps/x' })
    expect(parseRoute('#/projects//tasks/x')).toEqual({ name: 'unknown', hash: '#/projects//tasks/x' })
    expect(parseRoute('#/settings/accounts')).toEqual({ name: 'unknown', hash: '#/settings/accounts' })
    expect(parseRoute('#/settings/other/c-1')).toEqual({ name: 'unknown', hash: '#/settings/other/c-1' })
  })

  it('round-trips any ids through routeHash', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (projectId, taskId) => {
        const routes: Route[] = [
          { name: 'project', projectId },
          { name: 'task', projectId, taskId },
          { name: 'settings', account: projectId },
          { name: 'agent-task', connectionId: projectId, taskId }
        ]
        for (const route of routes) expect(parseRoute(routeHash(route))).toEqual(route)
      })
    )
  })
})

describe('sectionOf', () => {
  it('puts a project and a task under projects', () => {
    expect(sectionOf({ name: 'task', projectId: 'a', taskId: 'b' })).toBe('projects')
    expect(sectionOf({ name: 'costs' })).toBe('costs')
    // A task of an agent account is reached from Now: it has no project.
    expect(sectionOf({ name: 'agent-task', connectionId: 'c', taskId: 't' })).toBe('now')
    expect(sectionOf({ name: 'settings', account: 'c-1' })).toBe('settings')
    expect(sectionOf({ name: 'unknown', hash: '#x' })).toBeNull()
  })
})
