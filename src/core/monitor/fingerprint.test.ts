import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { STEP_STATUSES } from '../../shared/service'
import { recordFingerprint, stepsFingerprint } from './fingerprint'

const arbSteps = fc.uniqueArray(
  fc.record({
    id: fc.string({ minLength: 1, maxLength: 12 }),
    status: fc.constantFrom(...STEP_STATUSES, 'unknown' as const)
  }),
  { selector: (s) => s.id, maxLength: 20 }
)

describe('stepsFingerprint', () => {
  it('is a signed 32-bit integer, the same from the list and from a record in that order', () => {
    fc.assert(
      fc.property(arbSteps, (steps) => {
        const h = stepsFingerprint(steps)
        expect(h).toBe(h | 0)
        // As JSON.parse makes it: "__proto__" is an own key like any other.
        const record = Object.fromEntries(steps.map((s) => [s.id, s.status]))
        // Integer-like keys reorder in a record; other ids keep their order.
        if (steps.every((s) => !/^\d+$/.test(s.id))) expect(recordFingerprint(record)).toBe(h)
      })
    )
  })

  it('changes with a status, the order, or where one id ends and the next begins', () => {
    const base = [
      { id: 'ab', status: 'completed' as const },
      { id: 'c', status: 'pending' as const }
    ]
    const h = stepsFingerprint(base)
    expect(stepsFingerprint([base[0]!, { id: 'c', status: 'cancelled' }])).not.toBe(h)
    expect(stepsFingerprint([base[1]!, base[0]!])).not.toBe(h)
    expect(
      stepsFingerprint([
        { id: 'a', status: 'completed' },
        { id: 'bc', status: 'pending' }
      ])
    ).not.toBe(h)
    expect(stepsFingerprint([...base, { id: 'd', status: 'pending' }])).not.toBe(h)
  })

  it('stays what earlier builds persisted', () => {
    // Saved in state.json: a change here makes every ended task look changed once after an upgrade.
    expect(stepsFingerprint([])).toBe(0x811c9dc5 | 0)
    // Worked out apart from this code (FNV-1a by hand: length, code units, status 1-5 in STEP_STATUSES order).
    expect(
      stepsFingerprint([
        { id: 'step-1', status: 'completed' },
        { id: 'step-2', status: 'failed' }
      ])
    ).toBe(998267995)
  })
})
