import { describe, expect, it } from 'vitest'
import { describeUpdate } from '../../shared/update'
import {
  CHECK_INTERVAL_MS,
  FIRST_CHECK_DELAY_MS,
  initialUpdateModel,
  RETRY_BASE_MS,
  retryDelayMs,
  stepUpdate,
  updateErrorText,
  type UpdateInput,
  type UpdateModel,
  type UpdateStep
} from './machine'

const T0 = Date.UTC(2026, 0, 1, 9)

/** Runs inputs in order from T0 + at; returns every step. */
function run(start: UpdateModel, inputs: [number, UpdateInput][]): UpdateStep[] {
  let model = start
  return inputs.map(([at, input]) => {
    const step = stepUpdate(model, input, T0 + at)
    model = step.model
    return step
  })
}
const last = (steps: UpdateStep[]) => steps[steps.length - 1]!

describe('update machine', () => {
  it('plans the first check shortly after start, checks when due, then every interval', () => {
    const steps = run(initialUpdateModel({ enabled: true }), [
      [0, { type: 'start' }],
      [FIRST_CHECK_DELAY_MS, { type: 'due' }],
      [FIRST_CHECK_DELAY_MS + 10, { type: 'checking' }],
      [FIRST_CHECK_DELAY_MS + 500, { type: 'not-available' }]
    ])
    expect(steps[0]!.effects).toEqual([{ type: 'schedule', at: T0 + FIRST_CHECK_DELAY_MS }])
    expect(steps[1]!.effects).toEqual([{ type: 'check' }])
    expect(steps[1]!.model.view).toEqual({ phase: 'checking' })
    expect(last(steps).effects).toEqual([{ type: 'schedule', at: T0 + FIRST_CHECK_DELAY_MS + 500 + CHECK_INTERVAL_MS }])
    expect(last(steps).model.view).toMatchObject({
      phase: 'idle',
      checks: true,
      offline: false,
      lastCheckedAt: new Date(T0 + FIRST_CHECK_DELAY_MS + 500).toISOString()
    })
    expect(describeUpdate(last(steps).model.view)).toBe('Up to date')
  })

  it('downloads a found version in the background, shows progress, and waits for the user to install', () => {
    const steps = run(initialUpdateModel({ enabled: true }), [
      [0, { type: 'check-now' }],
      [100, { type: 'available', version: '1.2.0' }],
      [200, { type: 'progress', percent: 42.7, transferredBytes: 427, totalBytes: 1000 }],
      [300, { type: 'downloaded', version: '1.2.0' }],
      [CHECK_INTERVAL_MS * 3, { type: 'due' }],
      [CHECK_INTERVAL_MS * 3, { type: 'check-now' }]
    ])
    expect(steps[1]!.effects).toEqual([{ type: 'download' }, { type: 'schedule', at: null }])
    expect(steps[2]!.model.view).toEqual({
      phase: 'downloading',
      version: '1.2.0',
      percent: 42.7,
      transferredBytes: 427,
      totalBytes: 1000
    })
    expect(describeUpdate(steps[2]!.model.view)).toBe('Downloading version 1.2.0: 42%')
    expect(steps[3]!.model.view).toEqual({ phase: 'ready', version: '1.2.0' })
    // Nothing installs or checks on its own once ready.
    for (const s of steps.slice(3)) expect(s.effects.filter((e) => e.type !== 'schedule')).toEqual([])
    expect(stepUpdate(last(steps).model, { type: 'install' }, T0).effects).toEqual([{ type: 'install' }])
  })

  it('ignores install unless a version is ready, and a second check while one runs', () => {
    const idle = run(initialUpdateModel({ enabled: true }), [[0, { type: 'start' }]])
    expect(stepUpdate(last(idle).model, { type: 'install' }, T0).effects).toEqual([])
    const checking = stepUpdate(last(idle).model, { type: 'check-now' }, T0)
    expect(stepUpdate(checking.model, { type: 'check-now' }, T0).effects).toEqual([])
    expect(stepUpdate(checking.model, { type: 'due' }, T0).effects).toEqual([])
  })

  it('on an error shows one short line and retries later, backing off to the interval', () => {
    const steps = run(initialUpdateModel({ enabled: true }), [
      [0, { type: 'check-now' }],
      [10, { type: 'error', message: 'Error: net::ERR_CONNECTION_REFUSED\n    at SimpleURLLoaderWrapper.<anonymous>' }]
    ])
    expect(last(steps).model.view).toEqual({
      phase: 'error',
      message: 'the update server could not be reached',
      at: new Date(T0 + 10).toISOString(),
      nextCheckAt: new Date(T0 + 10 + RETRY_BASE_MS).toISOString()
    })
    expect(last(steps).effects).toEqual([{ type: 'schedule', at: T0 + 10 + RETRY_BASE_MS }])
    expect([1, 2, 3, 10].map(retryDelayMs)).toEqual([
      RETRY_BASE_MS,
      2 * RETRY_BASE_MS,
      4 * RETRY_BASE_MS,
      CHECK_INTERVAL_MS
    ])
    // A later success clears the failures.
    const ok = run(last(steps).model, [
      [RETRY_BASE_MS, { type: 'due' }],
      [RETRY_BASE_MS + 5, { type: 'not-available' }]
    ])
    expect(last(ok).model.failures).toBe(0)
  })

  it('words updater errors without stacks or noise', () => {
    expect(updateErrorText('HttpError: 404 Not Found\n"method: GET url: https://example.com/latest-linux.yml"')).toBe(
      'no release was found on the update server'
    )
    expect(updateErrorText('sha512 checksum mismatch, expected abc, got def')).toMatch(/damaged/)
    expect(updateErrorText(`x${'y'.repeat(500)}`)).toHaveLength(200)
    expect(updateErrorText('\n\n')).toBe('unknown error')
  })

  it('offline: no checks, no error shown; back online, a missed check runs at once', () => {
    const steps = run(initialUpdateModel({ enabled: true }), [
      [0, { type: 'start' }],
      [1000, { type: 'set-online', online: false }],
      [FIRST_CHECK_DELAY_MS, { type: 'due' }],
      [FIRST_CHECK_DELAY_MS + 1, { type: 'check-now' }]
    ])
    expect(steps[1]!.effects).toEqual([{ type: 'schedule', at: null }])
    expect(steps[2]!.effects).toEqual([])
    expect(steps[3]!.effects).toEqual([])
    expect(last(steps).model.view).toMatchObject({ phase: 'idle', offline: true, nextCheckAt: null })
    expect(describeUpdate(last(steps).model.view)).toBe('Updates: offline, will check when back online')
    const back = stepUpdate(last(steps).model, { type: 'set-online', online: true }, T0 + FIRST_CHECK_DELAY_MS + 2)
    expect(back.effects).toEqual([{ type: 'check' }])
  })

  it('an error while offline is not shown; the check reruns when the network returns', () => {
    const steps = run(initialUpdateModel({ enabled: true }), [
      [0, { type: 'check-now' }],
      [5, { type: 'set-online', online: false }],
      [10, { type: 'error', message: 'net::ERR_INTERNET_DISCONNECTED' }],
      [20, { type: 'set-online', online: true }]
    ])
    expect(steps[2]!.model.view).toMatchObject({ phase: 'idle', offline: true })
    expect(last(steps).effects).toEqual([{ type: 'check' }])
  })

  it('with checks off plans nothing, still checks when asked, and turned on checks soon', () => {
    const steps = run(initialUpdateModel({ enabled: false }), [
      [0, { type: 'start' }],
      [FIRST_CHECK_DELAY_MS, { type: 'due' }],
      [CHECK_INTERVAL_MS, { type: 'set-enabled', enabled: true }]
    ])
    expect(steps[0]!.effects).toEqual([{ type: 'schedule', at: null }])
    expect(steps[0]!.model.view).toMatchObject({ phase: 'idle', checks: false, nextCheckAt: null })
    expect(describeUpdate(steps[0]!.model.view)).toBe('Updates: automatic checks are off')
    expect(steps[1]!.effects).toEqual([])
    expect(stepUpdate(steps[1]!.model, { type: 'check-now' }, T0).effects).toEqual([{ type: 'check' }])
    expect(last(steps).effects).toEqual([{ type: 'schedule', at: T0 + CHECK_INTERVAL_MS + FIRST_CHECK_DELAY_MS }])
    const off = stepUpdate(last(steps).model, { type: 'set-enabled', enabled: false }, T0 + CHECK_INTERVAL_MS + 1)
    expect(off.effects).toEqual([{ type: 'schedule', at: null }])
  })

  it('a build that cannot update stays unavailable whatever happens', () => {
    const start = initialUpdateModel({ enabled: true, unavailable: 'not a packaged build' })
    const steps = run(start, [
      [0, { type: 'start' }],
      [1, { type: 'check-now' }],
      [2, { type: 'due' }],
      [3, { type: 'error', message: 'x' }],
      [4, { type: 'set-online', online: false }]
    ])
    for (const s of steps) expect(s.effects).toEqual([])
    expect(last(steps).model.view).toEqual({ phase: 'unavailable', reason: 'not a packaged build' })
  })

  it('progress outside a download is ignored and bounded inside one', () => {
    const idle = initialUpdateModel({ enabled: true })
    expect(stepUpdate(idle, { type: 'progress', percent: 5, transferredBytes: 1, totalBytes: 2 }, T0).model).toBe(idle)
    const found = stepUpdate(idle, { type: 'available', version: '2.0.0' }, T0).model
    expect(
      stepUpdate(found, { type: 'progress', percent: 140, transferredBytes: 1, totalBytes: 2 }, T0).model.view
    ).toMatchObject({ percent: 100 })
    expect(
      stepUpdate(found, { type: 'progress', percent: Number.NaN, transferredBytes: 1, totalBytes: 2 }, T0).model.view
    ).toMatchObject({ percent: 0 })
  })
})
