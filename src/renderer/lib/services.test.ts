import { describe, expect, it } from 'vitest'
import type { ProviderCapabilities, ProviderDescriptor } from '../../shared/provider'
import {
  agentStatusLabel,
  costText,
  isAgentAccount,
  keyPageFor,
  projectAccounts,
  serviceOf,
  taskRoute
} from './services'

const caps = (projects: boolean): ProviderCapabilities => ({
  steps: true,
  cost: true,
  publish: projects,
  projects,
  approve: !projects,
  reply: !projects,
  startTask: projects
})
const service = (kind: string, projects: boolean): ProviderDescriptor => ({
  kind,
  displayName: kind.toUpperCase(),
  defaultBaseUrl: `https://${kind}.example`,
  keyPage: `https://${kind}.example/keys`,
  capabilities: caps(projects)
})
const SERVICES = [service('first', true), service('other', false)]

describe('serviceOf', () => {
  it('reads the connection’s service, the first one when it names none, and null for one not offered', () => {
    expect(serviceOf({}, SERVICES)?.kind).toBe('first')
    expect(serviceOf({ service: 'other' }, SERVICES)?.kind).toBe('other')
    expect(serviceOf({ service: 'gone' }, SERVICES)).toBeNull()
    expect(serviceOf({}, [])).toBeNull()
  })
})

describe('isAgentAccount', () => {
  it('is any account of a service other than the first', () => {
    expect(isAgentAccount({}, SERVICES)).toBe(false)
    expect(isAgentAccount({ service: 'first' }, SERVICES)).toBe(false)
    expect(isAgentAccount({ service: 'other' }, SERVICES)).toBe(true)
    expect(isAgentAccount({ service: 'unknown-kind' }, SERVICES)).toBe(true)
  })
})

describe('projectAccounts', () => {
  it('keeps only accounts whose service has projects', () => {
    const list = [
      { id: 'a', service: undefined },
      { id: 'b', service: 'other' },
      { id: 'c', service: 'first' }
    ]
    expect(projectAccounts(list, SERVICES).map((c) => c.id)).toEqual(['a', 'c'])
  })
})

describe('agentStatusLabel', () => {
  it('words a status, and an unknown one by the service’s own word', () => {
    expect(agentStatusLabel({ status: 'waiting', serviceStatus: 'AWAITING_PLAN_APPROVAL' })).toBe('Waiting for you')
    expect(agentStatusLabel({ status: 'unknown', serviceStatus: 'HIBERNATING' })).toBe('HIBERNATING')
    expect(agentStatusLabel({ status: 'unknown', serviceStatus: '' })).toBe('Unknown')
  })
})

describe('costText', () => {
  it('names the unit: money by the one money format, else the amount and the unit', () => {
    expect(costText({ amount: 1.5, unit: 'USD' })).toBe('$1.50')
    expect(costText({ amount: 3, unit: 'premium requests' })).toBe('3 premium requests')
    expect(costText({ amount: 0.125, unit: 'AI credits' })).toBe('0.13 AI credits')
  })
})

describe('keyPageFor', () => {
  it('offers the service’s key page for its own address only', () => {
    expect(keyPageFor(SERVICES[1]!, 'https://other.example/')).toBe('https://other.example/keys')
    expect(keyPageFor(SERVICES[1]!, 'https://self-hosted.example')).toBeNull()
  })
})

describe('taskRoute', () => {
  const connections = [{ id: 'w' }, { id: 'g', service: 'other' }]
  it('opens an agent account’s task on its own screen, any other on its project', () => {
    expect(taskRoute({ connectionId: 'g', projectId: 'owner/repo', taskId: 't' }, connections, SERVICES)).toEqual({
      name: 'agent-task',
      connectionId: 'g',
      taskId: 't'
    })
    expect(taskRoute({ connectionId: 'w', projectId: 'p', taskId: 't' }, connections, SERVICES)).toEqual({
      name: 'task',
      projectId: 'p',
      taskId: 't'
    })
    expect(taskRoute({ projectId: 'p', taskId: 't' }, connections, SERVICES).name).toBe('task')
  })
})
