import { describe, expect, it } from 'vitest'
import type { TaskStep } from '../../shared/service'
import { currentStep, failedStep } from './now'

function step(name: string, status: TaskStep['status'], created: number, updated = created): TaskStep {
  const at = (minute: number): string => new Date(Date.UTC(2026, 10, 26, 10, minute)).toISOString()
  return {
    id: name,
    task_id: 't',
    name,
    description: '',
    status,
    type: null,
    metadata: {},
    created_at: at(created),
    updated_at: at(updated)
  }
}

describe('currentStep', () => {
  it('is the running step with its number in start order and its start, whatever the list order, even when another step changed after it', () => {
    const steps = [
      step('Write tests', 'in_progress', 3),
      step('Plan', 'completed', 1, 2),
      step('Read code', 'completed', 2, 4)
    ]
    expect(currentStep(steps)).toEqual({ name: 'Write tests', number: 3, startedAt: steps[0]!.created_at })
  })

  it('is not a fraction of the steps so far: a task on its 12th step is on step 12, not 11 of 12 done', () => {
    const steps = Array.from({ length: 12 }, (_, i) => step(`Step ${i + 1}`, i < 11 ? 'completed' : 'in_progress', i))
    expect(currentStep(steps)).toMatchObject({ name: 'Step 12', number: 12 })
  })

  it('falls back to the step updated last when none runs, and is null before the first step', () => {
    const steps = [step('Plan', 'completed', 1, 9), step('Build', 'failed', 2, 4)]
    expect(currentStep(steps)).toMatchObject({ name: 'Plan', number: 1 })
    expect(currentStep([])).toBeNull()
  })
})

describe('failedStep', () => {
  it('is the failed step with its number in start order, the last when several failed', () => {
    const steps = [
      step('Test', 'failed', 3),
      step('Plan', 'completed', 1),
      step('Build', 'failed', 2),
      step('Report', 'completed', 4)
    ]
    expect(failedStep(steps)).toEqual({ name: 'Test', number: 3 })
  })

  it('falls back to the last step started when none says failed, and is null without steps', () => {
    expect(failedStep([step('Build', 'cancelled', 2), step('Plan', 'completed', 1)])).toEqual({
      name: 'Build',
      number: 2
    })
    expect(failedStep([])).toBeNull()
  })
})
