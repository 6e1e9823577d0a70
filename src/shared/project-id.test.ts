import { describe, expect, it } from 'vitest'
import { findProjectId } from './project-id'

const A = '3f2a8c1e-9b7d-4e21-8a55-0c6d2e9f1b34'
const B = 'aa11bb22-cc33-4d44-8e55-ff6677889900'

describe('findProjectId', () => {
  it('takes an id as it is, a UUID in any case (lowercased when found inside text)', () => {
    expect(findProjectId(` ${A} `)).toEqual({ ok: true, projectId: A, from: 'id' })
    expect(findProjectId('proj_123')).toEqual({ ok: true, projectId: 'proj_123', from: 'id' })
    expect(findProjectId(`see ${A.toUpperCase()} please`)).toEqual({ ok: true, projectId: A, from: 'text' })
  })

  it('reads up to 4096 characters', () => {
    const text = `${'x'.repeat(4096 - A.length - 1)} ${A}`
    expect(text).toHaveLength(4096)
    expect(findProjectId(text)).toEqual({ ok: true, projectId: A, from: 'text' })
  })

  it('calls only an http(s) URL a link', () => {
    expect(findProjectId(`https://app.example.com/p/${A}`)).toEqual({ ok: true, projectId: A, from: 'link' })
    for (const text of [
      `xhttp://app.example.com/p/${A}`,
      `ftp://app.example.com/p/${A}`,
      `agent-tray://projects/${A}`
    ]) {
      expect(findProjectId(text), text).toEqual({ ok: true, projectId: A, from: 'text' })
    }
  })

  it("finds the id in the project's prebuilt_url or any link that holds it", () => {
    expect(findProjectId(`http://127.0.0.1:4010/prebuilt/${A}`)).toEqual({ ok: true, projectId: A, from: 'link' })
    expect(findProjectId(`https://app.example.com/chat?project=${A}#top`)).toEqual({
      ok: true,
      projectId: A,
      from: 'link'
    })
  })

  it('prefers the id after a project segment when a link holds several, and asks otherwise', () => {
    expect(findProjectId(`https://app.example.com/projects/${A}/sessions/${B}`)).toEqual({
      ok: true,
      projectId: A,
      from: 'link'
    })
    expect(findProjectId(`https://app.example.com/x/${A}/y/${B}`)).toEqual({
      ok: false,
      problem: 'That holds 2 different ids: paste the project’s own id.'
    })
    expect(findProjectId(`${A} and ${B}`).ok).toBe(false)
  })

  it('says what is missing', () => {
    expect(findProjectId('')).toMatchObject({ ok: false, problem: expect.stringMatching(/Enter a project id/) })
    expect(findProjectId('https://app.example.com/nothing/here')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/No project id found/)
    })
    expect(findProjectId('x'.repeat(5000))).toMatchObject({ ok: false, problem: expect.stringMatching(/longer than/) })
    expect(findProjectId('x'.repeat(4097))).toEqual({
      ok: false,
      problem: 'That is longer than 4096 characters: paste the project’s id or link only.'
    })
  })
})
