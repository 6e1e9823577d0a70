import { describe, expect, it } from 'vitest'
import type { ProviderStep } from '../../shared/provider'
import { newStepsWords, providerStepLine, stepArguments, stepHeading, uniqueSteps } from './provider-steps'

const step = (id: string, title = id, detail: string | null = null): ProviderStep => ({
  id,
  kind: 'tool_call',
  title,
  detail,
  at: null,
  status: null,
  serviceStatus: null
})

describe('providerStepLine', () => {
  it('a tool’s JSON arguments as key=value, one line', () => {
    expect(providerStepLine({ detail: '{"path":"package.json"}' })).toBe('path=package.json')
    expect(providerStepLine({ detail: '{"command":"npm\\n test","cwd":"."}' })).toBe('command=npm test cwd=.')
  })

  it('any other text as it is, on one line and cut', () => {
    expect(providerStepLine({ detail: '1. Read\n2. Write' })).toBe('1. Read 2. Write')
    expect(providerStepLine({ detail: '42' })).toBe('42')
    expect(providerStepLine({ detail: '["a"]' })).toBe('["a"]')
    expect(providerStepLine({ detail: '{"cut": "in the mid' })).toBe('{"cut": "in the mid')
    expect(providerStepLine({ detail: null })).toBe('')
    expect(providerStepLine({ detail: 'x'.repeat(500) })).toHaveLength(160)
  })
})

describe('stepArguments', () => {
  it('a JSON object is a tool’s arguments; any other text is not', () => {
    expect(stepArguments({ detail: '{"path":"a.ts","line":3}' })).toEqual({ path: 'a.ts', line: 3 })
    for (const detail of [null, '', 'plain words', '42', '["a"]', 'null', '{"cut":'])
      expect(stepArguments({ detail })).toBeNull()
  })
})

describe('uniqueSteps', () => {
  it('keeps one row per id: the latest copy where the first was', () => {
    const out = uniqueSteps([step('a', 'old'), step('b'), step('a', 'new')])
    expect(out.map((s) => `${s.id}:${s.title}`)).toEqual(['a:new', 'b:b'])
  })
})

describe('newStepsWords', () => {
  it('says nothing when nothing is new', () => {
    expect(newStepsWords(new Set(['a']), [step('a')])).toBeNull()
    expect(newStepsWords(new Set(), [])).toBeNull()
  })

  it('names one new step, or counts several and names the latest', () => {
    expect(newStepsWords(new Set(['a']), [step('a'), step('b', 'read_file')])).toBe('New step: read_file')
    expect(newStepsWords(new Set(['a']), [step('a'), step('b'), step('c', 'edit_file')])).toBe(
      '2 new steps, the latest: edit_file'
    )
  })

  it('a step without a title is named by its kind, on one line', () => {
    expect(newStepsWords(new Set(), [step('a', '')])).toBe('New step: tool_call')
    expect(newStepsWords(new Set(), [step('a', 'two\nlines')])).toBe('New step: two lines')
  })
})

describe('stepHeading', () => {
  it('a short title is the heading alone', () => {
    expect(stepHeading({ title: 'read_file', kind: 'tool_call' })).toEqual({ title: 'read_file', full: null })
    expect(stepHeading({ title: ' ', kind: 'tool_call' })).toEqual({ title: 'tool_call', full: null })
  })

  it('a long or many-lined title: its first line, cut, heads the whole text', () => {
    const message = `I will start.\n${'More words. '.repeat(20)}`
    expect(stepHeading({ title: message, kind: 'devin' })).toEqual({ title: 'I will start.', full: message.trim() })
    const long = stepHeading({ title: 'x'.repeat(200), kind: 'devin' })
    expect(long.title).toHaveLength(80)
    expect(long.title.endsWith('…')).toBe(true)
    expect(long.full).toBe('x'.repeat(200))
  })
})
