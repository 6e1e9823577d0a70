import { describe, expect, it } from 'vitest'
import type { Project } from '../../shared/service'
import {
  connectionValue,
  editFormOf,
  emptyProjectForm,
  keyRequiredFor,
  newTaskValue,
  pollingChoices,
  productIdValue,
  projectCreateBody,
  projectUpdateBody,
  replyValue,
  serviceFieldsShown,
  withService
} from './forms'

const project: Project = {
  id: 'p1',
  software_product_id: 'sp',
  name: 'Shop',
  description: 'A shop',
  project_type: 'web',
  project_template_type: 'nextjs',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  user_email: 'a@b.co',
  prebuilt_url: 'https://pre.example.com/p1',
  return_url: 'https://client.example.com',
  ref_id: 'r1'
}

describe('projectCreateBody', () => {
  it('sends every filled field, trimmed, with image rows as file requirements', () => {
    const result = projectCreateBody({
      software_product_id: ' sp-1 ',
      name: 'Shop',
      description: 'desc',
      text_requirement: 'Build a shop',
      image_urls: ['https://img.example.com/a.png', '  ', 'https://img.example.com/b.png'],
      user_email: 'me@example.com',
      return_url: 'https://client.example.com/back',
      ref_id: 'R-9'
    })
    expect(result).toEqual({
      ok: true,
      value: {
        project_type: 'web',
        software_product_id: 'sp-1',
        name: 'Shop',
        description: 'desc',
        text_requirement: 'Build a shop',
        files_requirement: [
          { file_type: 'image', url: 'https://img.example.com/a.png' },
          { file_type: 'image', url: 'https://img.example.com/b.png' }
        ],
        user_email: 'me@example.com',
        return_url: 'https://client.example.com/back',
        ref_id: 'R-9'
      }
    })
  })

  it('leaves out empty fields', () => {
    expect(projectCreateBody({ ...emptyProjectForm(), name: 'X' })).toEqual({
      ok: true,
      value: { project_type: 'web', name: 'X' }
    })
  })

  it('names every bad field', () => {
    const result = projectCreateBody({
      ...emptyProjectForm(),
      user_email: 'nope',
      return_url: 'javascript:alert(1)',
      image_urls: ['https://ok.example.com/a.png', 'not a url']
    })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(Object.keys(result.errors).sort()).toEqual(['image_urls.1', 'name', 'return_url', 'user_email'])
  })

  it('takes the return URLs the app takes: an app link too, never a script or a file', () => {
    for (const ok of ['https://client.example.com/back', 'agent-tray://projects/p1']) {
      expect(projectCreateBody({ ...emptyProjectForm(), name: 'X', return_url: ok }).ok, ok).toBe(true)
    }
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'no scheme']) {
      expect(projectCreateBody({ ...emptyProjectForm(), name: 'X', return_url: bad }).ok, bad).toBe(false)
    }
  })
})

describe('projectUpdateBody', () => {
  it('sends only what changed', () => {
    const form = { ...editFormOf(project), name: 'Shop 2', ref_id: ' r1 ' }
    expect(projectUpdateBody(project, form)).toEqual({ ok: true, value: { name: 'Shop 2' } })
    expect(projectUpdateBody(project, editFormOf(project))).toEqual({ ok: true, value: {} })
  })

  it('lets a field be cleared, but not the name', () => {
    expect(projectUpdateBody(project, { ...editFormOf(project), ref_id: '' })).toEqual({
      ok: true,
      value: { ref_id: '' }
    })
    const noName = projectUpdateBody(project, { ...editFormOf(project), name: ' ' })
    expect(noName.ok).toBe(false)
  })
})

describe('serviceFieldsShown', () => {
  it('stays closed until asked, and opens for a problem in the name or the address, never for the key alone', () => {
    expect(serviceFieldsShown(false, {})).toBe(false)
    expect(serviceFieldsShown(false, { apiKey: 'Enter the API key.' })).toBe(false)
    expect(serviceFieldsShown(true, {})).toBe(true)
    expect(serviceFieldsShown(false, { name: 'Give the connection a name.' })).toBe(true)
    expect(serviceFieldsShown(false, { baseUrl: 'The service address must use https.' })).toBe(true)
  })
})

describe('connectionValue', () => {
  it('normalises the address and the domain', () => {
    expect(
      connectionValue(
        {
          name: ' Prod ',
          baseUrl: 'https://api.example.com/// ',
          publishingDomain: 'Apps.Example.com.',
          apiKey: ' k '
        },
        true
      )
    ).toEqual({
      ok: true,
      value: { name: 'Prod', baseUrl: 'https://api.example.com', publishingDomain: 'apps.example.com', apiKey: 'k' }
    })
  })

  it('requires a key for a new connection only', () => {
    const form = { name: 'A', baseUrl: 'http://localhost:4010', publishingDomain: '', apiKey: '' }
    expect(connectionValue(form, false)).toEqual({
      ok: true,
      value: { name: 'A', baseUrl: 'http://localhost:4010', publishingDomain: '' }
    })
    const missing = connectionValue(form, true)
    expect(missing.ok ? null : missing.errors.apiKey).toMatch(/API key/)
  })

  it('refuses a bad address and domain', () => {
    const result = connectionValue(
      { name: '', baseUrl: 'api.example.com', publishingDomain: 'https://x.com', apiKey: 'k' },
      true
    )
    expect(result.ok ? [] : Object.keys(result.errors).sort()).toEqual(['baseUrl', 'name', 'publishingDomain'])
  })

  it('refuses plain http to another machine, saying why', () => {
    const result = connectionValue(
      { name: 'A', baseUrl: 'http://agents.example.com', publishingDomain: '', apiKey: 'k' },
      true
    )
    expect(result.ok ? null : result.errors.baseUrl).toMatch(
      /must use https: plain http would send the API key in clear text/
    )
  })

  it('asks for the key again when an existing connection moves to another origin', () => {
    const existing = { baseUrl: 'https://a.example.com/v1', hasKey: true }
    expect(keyRequiredFor(existing, 'https://a.example.com/v2')).toBe(false)
    expect(keyRequiredFor(existing, 'https://b.example.com/v1')).toBe(true)
    expect(keyRequiredFor(existing, 'http://a.example.com/v1')).toBe(true)
    expect(keyRequiredFor(existing, 'half typed')).toBe(false)
    expect(keyRequiredFor({ ...existing, hasKey: false }, 'https://a.example.com/v1')).toBe(true)
    expect(keyRequiredFor(null, 'https://a.example.com')).toBe(true)
  })
})

describe('pollingChoices', () => {
  it('offers steps within the shared polling bounds, the current value among them', () => {
    expect(pollingChoices('activeIntervalMs', 1_000)).toEqual([1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 300_000])
    expect(pollingChoices('activeIntervalMs', 7_000)).toContain(7_000)
    expect(pollingChoices('idleIntervalMs', 60_000)[0]).toBe(5_000)
    expect(pollingChoices('idleIntervalMs', 120_000)).toEqual([
      5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 900_000, 3_600_000
    ])
    // Out of bounds (a damaged file's value): not offered.
    expect(pollingChoices('idleIntervalMs', 1_000)).not.toContain(1_000)
  })
})

describe('newTaskValue', () => {
  it('trims both fields and sends them when the shared rule takes them', () => {
    expect(newTaskValue({ name: '  Add search ', requirement: ' A box\non top \n' })).toEqual({
      ok: true,
      value: { name: 'Add search', textRequirement: 'A box\non top' }
    })
  })

  it('asks for what is missing in the form’s words, and names the cap the app would refuse', () => {
    expect(newTaskValue({ name: ' ', requirement: '' })).toEqual({
      ok: false,
      errors: { name: 'Give the task a short name.', requirement: 'Say what the agent should do.' }
    })
    expect(newTaskValue({ name: 'x'.repeat(201), requirement: 'T' })).toEqual({
      ok: false,
      errors: { name: 'The name must be at most 200 characters.' }
    })
    expect(newTaskValue({ name: 'N', requirement: 'bell \u0007' })).toEqual({
      ok: false,
      errors: { requirement: 'What the agent should do must not contain control characters.' }
    })
  })
})

describe('productIdValue', () => {
  it('takes a trimmed id by the shared id rule, and says why not otherwise', () => {
    expect(productIdValue(' prod-1 ')).toEqual({ ok: true, productId: 'prod-1' })
    expect(productIdValue('  ')).toEqual({ ok: false, error: 'Enter or pick a software product id.' })
    expect(productIdValue('../x')).toEqual({
      ok: false,
      error: 'A software product id may contain only letters, digits and . _ : - (not starting with .).'
    })
    expect(productIdValue('x'.repeat(201))).toEqual({
      ok: false,
      error: 'A software product id must be at most 200 characters.'
    })
  })
})

describe('withService', () => {
  const first = { displayName: 'First', defaultBaseUrl: 'https://first.example' }
  const other = { displayName: 'Other', defaultBaseUrl: 'https://other.example/v1' }
  const form = { name: 'First', baseUrl: 'https://first.example', publishingDomain: '', apiKey: 'k' }

  it('moves the name and address to the new service’s while they are the old one’s', () => {
    expect(withService(form, first, other)).toEqual({ ...form, name: 'Other', baseUrl: 'https://other.example/v1' })
    expect(withService({ ...form, name: ' ', baseUrl: '' }, null, other)).toMatchObject({
      name: 'Other',
      baseUrl: 'https://other.example/v1'
    })
  })

  it('keeps what the user typed', () => {
    const typed = { ...form, name: 'Work account', baseUrl: 'https://mine.example' }
    expect(withService(typed, first, other)).toEqual(typed)
  })
})

describe('replyValue', () => {
  it('sends the trimmed reply, and asks for one within the bound', () => {
    expect(replyValue('  Use the second option.\n')).toEqual({ ok: true, value: 'Use the second option.' })
    expect(replyValue(' \n ')).toEqual({ ok: false, errors: { message: 'Write your reply first.' } })
    expect(replyValue('x'.repeat(10_000)).ok).toBe(true)
    expect(replyValue('x'.repeat(10_001))).toEqual({
      ok: false,
      errors: { message: 'A reply can be at most 10,000 characters.' }
    })
  })
})
