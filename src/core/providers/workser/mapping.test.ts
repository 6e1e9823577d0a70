// Workser as the first provider: its statuses in full, its price in USD, its steps.
import { describe, expect, it } from 'vitest'
import { statusFrom } from '../../../shared/provider'
import { STEP_STATUSES, TASK_STATUSES } from '../../../shared/service'
import { testTask } from '../../../shared/test-task'
import { WORKSER_STATUS, WORKSER_STEP_STATUS, workserTask } from './mapping'

describe('Workser as a provider', () => {
  it('maps every task and step status of the interface, and only those', () => {
    expect(Object.keys(WORKSER_STATUS).sort()).toEqual([...TASK_STATUSES].sort())
    expect(Object.keys(WORKSER_STEP_STATUS).sort()).toEqual([...STEP_STATUSES].sort())
    expect(WORKSER_STATUS).toEqual({
      todo: 'queued',
      in_progress: 'running',
      completed: 'completed',
      failed: 'failed',
      cancelled: 'cancelled'
    })
  })

  it("an unknown status keeps the server's word", () => {
    const t = workserTask(testTask('t1', { status: 'unknown', status_raw: 'archived' }), null, null)
    expect([t.status, t.serviceStatus]).toEqual(['unknown', 'archived'])
    expect(statusFrom(WORKSER_STATUS, 'todo')).toEqual({ status: 'queued', serviceStatus: 'todo' })
  })

  it('its price is money in USD; none is no cost', () => {
    expect(workserTask(testTask('t1', { total_price: 0.25 }), null, null).costs).toEqual([
      { amount: 0.25, unit: 'USD' }
    ])
    expect(workserTask(testTask('t1', { total_price: null }), null, null).costs).toEqual([])
  })
})

describe('Workser steps', () => {
  it('each step with its own status and word', () => {
    const step = {
      id: 's1',
      task_id: 't1',
      name: 'Read the repo',
      description: '',
      status: 'unknown' as const,
      status_raw: 'paused',
      type: null,
      metadata: {},
      created_at: '2026-11-27T09:00:00Z',
      updated_at: '2026-11-27T09:01:00Z'
    }
    expect(workserTask(testTask('t1', { steps: [step] }), { id: 'p1', name: 'Site' }, null).steps).toEqual([
      {
        id: 's1',
        kind: 'step',
        title: 'Read the repo',
        detail: null,
        at: '2026-11-27T09:00:00Z',
        status: 'unknown',
        serviceStatus: 'paused'
      }
    ])
  })
})
