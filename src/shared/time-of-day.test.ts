import { describe, expect, it } from 'vitest'
import { isTimeOfDay, timesOfDay } from './time-of-day'

describe('timesOfDay, the quiet hours one may choose', () => {
  it('is every half hour from midnight, each a time of day', () => {
    const times = timesOfDay()
    expect(times).toHaveLength(48)
    expect(times.slice(0, 3)).toEqual(['00:00', '00:30', '01:00'])
    expect(times.at(-1)).toBe('23:30')
    expect(times.every(isTimeOfDay)).toBe(true)
  })

  it('keeps a saved time off the half hour in its place, and nothing that is not a time', () => {
    const times = timesOfDay('23:15')
    expect(times).toHaveLength(49)
    expect(times.slice(-3)).toEqual(['23:00', '23:15', '23:30'])
    expect(timesOfDay('22:30')).toHaveLength(48)
    expect(timesOfDay('25:00')).toHaveLength(48)
  })
})
