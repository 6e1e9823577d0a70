import { describe, expect, it } from 'vitest'
import { planTarget } from './add-target'

const HOOK = 'https://hooks.example.com/in/abc123'

describe('planTarget', () => {
  it('refuses a signing secret shorter than 16 characters, for the window and the command alike', () => {
    expect(planTarget([], { url: HOOK, secret: 'fifteen-chars-5' }, 'id1')).toMatchObject({ ok: false, field: 'secret', problem: 'A signing secret is at least 16 characters.' })
    expect(planTarget([], { url: HOOK, secret: 'sixteen-chars-16' }, 'id1')).toMatchObject({ ok: true, stored: { url: HOOK, secret: 'sixteen-chars-16' } })
  })
})
