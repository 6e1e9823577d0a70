import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '../core/client'
import { createDemoRunner } from './demo'
import { isDemoLaunch } from './launch'

describe('isDemoLaunch', () => {
  it('is on with --demo or AGENT_TRAY_DEMO=1 only', () => {
    expect(isDemoLaunch(['electron', '.', '--demo'], {})).toBe(true)
    expect(isDemoLaunch(['electron', '.'], { AGENT_TRAY_DEMO: '1' })).toBe(true)
    expect(isDemoLaunch(['electron', '.'], { AGENT_TRAY_DEMO: '0' })).toBe(false)
    expect(isDemoLaunch(['electron', '.', '--demo=no'], {})).toBe(false)
  })
})

describe('createDemoRunner', () => {
  const runner = createDemoRunner({ seed: 7 })
  afterEach(() => runner.close())

  it('serves seeded projects on loopback under a random key', async () => {
    const demo = await runner.start()
    expect(new URL(demo.baseUrl).hostname).toBe('127.0.0.1')
    expect(demo.apiKey.length).toBeGreaterThanOrEqual(32)
    expect(demo.projectIds).toHaveLength(3)
    const client = createServiceClient({ baseUrl: demo.baseUrl, apiKey: demo.apiKey, retry: { retries: 0 } })
    const tasks = await client.listTasks(demo.projectIds[0]!)
    expect(tasks.some((t) => t.status === 'in_progress' || t.status === 'todo')).toBe(true)
    const wrong = createServiceClient({ baseUrl: demo.baseUrl, apiKey: 'not-the-key', retry: { retries: 0 } })
    await expect(wrong.listTasks(demo.projectIds[0]!)).rejects.toMatchObject({ kind: 'auth' })
    await client.close()
    await wrong.close()
    const again = await runner.start()
    expect(again.baseUrl).toBe(demo.baseUrl)
    expect(again.apiKey).toBe(demo.apiKey)
  })
})
