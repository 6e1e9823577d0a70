import { describe, expect, it } from 'vitest'
import { isDemoLaunch, secondLaunchWantsDemo } from './launch'

describe('isDemoLaunch', () => {
  it('is on with --demo or AGENT_TRAY_DEMO=1 only', () => {
    expect(isDemoLaunch(['electron', '.', '--demo'], {})).toBe(true)
    expect(isDemoLaunch(['electron', '.'], { AGENT_TRAY_DEMO: '1' })).toBe(true)
    expect(isDemoLaunch(['electron', '.'], { AGENT_TRAY_DEMO: 'true' })).toBe(false)
    expect(isDemoLaunch(['electron', '.', '--demo=1'], {})).toBe(false)
  })
})

describe('secondLaunchWantsDemo', () => {
  it('reads demo: true and nothing else from the second launch', () => {
    expect(secondLaunchWantsDemo({ demo: true })).toBe(true)
    for (const data of [{ demo: false }, { demo: 'true' }, {}, null, undefined, 'demo', [true]]) {
      expect(secondLaunchWantsDemo(data), JSON.stringify(data)).toBe(false)
    }
  })
})
