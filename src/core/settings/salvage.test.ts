import { describe, expect, it } from 'vitest'
import { salvageJson } from './salvage'

describe('salvageJson', () => {
  const whole = JSON.stringify(
    { version: 2, watched: { c1: [{ projectId: 'p1' }, { projectId: 'p2' }] }, theme: 'dark' },
    null,
    '\t'
  )

  it('keeps every whole value before the cut', () => {
    const cut = whole.slice(0, whole.indexOf('p2') + 1)
    // The second project was cut inside its id: only its opening brace survives.
    expect(salvageJson(cut)).toEqual({ version: 2, watched: { c1: [{ projectId: 'p1' }, {}] } })
  })

  it('recovers the whole document when only the last bracket is missing', () => {
    expect(salvageJson(whole.slice(0, -1))).toEqual(JSON.parse(whole))
  })

  it('gives up on text that is not JSON at all', () => {
    expect(salvageJson('hello world')).toBeUndefined()
    expect(salvageJson('')).toBeUndefined()
    expect(salvageJson('{"a": 1]')).toBeUndefined()
  })

  it('reads every prefix of a document without throwing', () => {
    for (let end = 0; end <= whole.length; end++) {
      const value = salvageJson(whole.slice(0, end))
      if (end > 0) expect(typeof value === 'object' || value === undefined).toBe(true)
    }
  })
})
