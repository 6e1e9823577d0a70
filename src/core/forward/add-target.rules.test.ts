// planTarget's rules one by one: the URL, the secret's kind, the name (given or made, trimmed,
// bounded, plain, unique), the number of targets, and what a new target starts with.
import { describe, expect, it } from 'vitest'
import { DEFAULT_FORWARD_EVENTS, type ForwardTarget, MAX_TARGET_NAME, MAX_TARGETS } from '../../shared/forward-target'
import { planTarget } from './add-target'

const HOOK = 'https://hooks.example.com/in/abc123'
const NTFY = 'ntfys://ntfy.example/topic-1'
const existing = (n: number, name = (i: number) => `t${i}`): ForwardTarget[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `i${i}`,
    name: name(i),
    kind: 'ntfy',
    host: 'h',
    on: ['failed'],
    when: 'away',
    paused: false,
    quietHours: false
  }))

describe('planTarget', () => {
  it('a new target from its URL alone: named by kind and host, default events, away, not paused, no quiet hours', () => {
    expect(planTarget([], { url: `  ${NTFY}  ` }, 'id1')).toEqual({
      ok: true,
      target: {
        id: 'id1',
        name: 'ntfy ntfy.example',
        kind: 'ntfy',
        host: 'ntfy.example',
        on: DEFAULT_FORWARD_EVENTS,
        when: 'away',
        paused: false,
        quietHours: false
      },
      stored: { url: NTFY }
    })
  })

  it('what was given is kept: events once each, when, quiet hours, a trimmed name and secret', () => {
    const plan = planTarget(
      [],
      {
        url: HOOK,
        name: '  Mine  ',
        on: ['completed', 'failed', 'completed'],
        when: 'always',
        quietHours: true,
        secret: '  sixteen-chars-16  '
      },
      'id1'
    )
    expect(plan).toEqual({
      ok: true,
      target: {
        id: 'id1',
        name: 'Mine',
        kind: 'webhook',
        host: 'hooks.example.com',
        on: ['completed', 'failed'],
        when: 'always',
        paused: false,
        quietHours: true
      },
      stored: { url: HOOK, secret: 'sixteen-chars-16' }
    })
    // No events given, or none: the defaults.
    expect(planTarget([], { url: NTFY, on: [] }, 'id1')).toMatchObject({ target: { on: DEFAULT_FORWARD_EVENTS } })
  })

  it('refuses an unreadable URL, without repeating it', () => {
    const plan = planTarget([], { url: 'ftp://secret-token@example.com' }, 'id1')
    expect(plan).toMatchObject({ ok: false, field: 'url' })
    expect(JSON.stringify(plan)).not.toContain('secret-token')
  })

  it('a signing secret only for a JSON webhook', () => {
    expect(planTarget([], { url: NTFY, secret: 'sixteen-chars-16' }, 'id1')).toEqual({
      ok: false,
      field: 'secret',
      problem: 'A signing secret is for a JSON webhook only.'
    })
  })

  it('a name of 1 to MAX_TARGET_NAME characters, without control characters', () => {
    const problem = `A target's name is 1 to ${MAX_TARGET_NAME} characters, without control characters.`
    for (const name of ['', '   ', 'a'.repeat(MAX_TARGET_NAME + 1), 'bad\u001b[2Jname', 'bi\u202edi']) {
      expect(planTarget([], { url: NTFY, name }, 'id1'), JSON.stringify(name)).toEqual({
        ok: false,
        field: 'name',
        problem
      })
    }
    expect(planTarget([], { url: NTFY, name: 'a'.repeat(MAX_TARGET_NAME) }, 'id1').ok).toBe(true)
    expect(planTarget([], { url: NTFY, name: 'x' }, 'id1').ok).toBe(true)
  })

  it('a name already taken is refused, the made one too', () => {
    expect(
      planTarget(
        existing(1, () => 'Mine'),
        { url: NTFY, name: ' Mine ' },
        'id1'
      )
    ).toEqual({ ok: false, field: 'name', problem: "A target is already named 'Mine': give it another name." })
    expect(
      planTarget(
        existing(1, () => 'ntfy ntfy.example'),
        { url: NTFY },
        'id1'
      )
    ).toMatchObject({ ok: false, field: 'name' })
  })

  it(`at most ${MAX_TARGETS} targets`, () => {
    expect(planTarget(existing(MAX_TARGETS), { url: NTFY }, 'id1')).toEqual({
      ok: false,
      field: 'targets',
      problem: `At most ${MAX_TARGETS} targets.`
    })
    expect(planTarget(existing(MAX_TARGETS - 1), { url: NTFY }, 'id1').ok).toBe(true)
  })
})
