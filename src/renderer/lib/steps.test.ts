import { describe, expect, it } from 'vitest'
import type { TaskStep } from '../../shared/service'
import { metadataSummary, stepSummary, timelineOrder } from './steps'

function step(id: string, created_at: string, metadata: Record<string, unknown> = {}): TaskStep {
  return {
    id,
    task_id: 't',
    name: id,
    description: '',
    status: 'completed',
    type: null,
    metadata,
    created_at,
    updated_at: created_at
  }
}

describe('metadataSummary', () => {
  it('words each tool in one line', () => {
    expect(metadataSummary({ kind: 'file', tool: 'read_file_from_sandbox', path: 'a.ts' })).toBe('read a.ts')
    expect(metadataSummary({ kind: 'file', tool: 'write_file_to_sandbox', path: 'b.ts' })).toBe('write b.ts')
    expect(metadataSummary({ kind: 'directory', path: '' })).toBe('list (root)')
    expect(metadataSummary({ kind: 'command', command: 'npm\n  test' })).toBe('$ npm test')
    expect(metadataSummary({ kind: 'replace', files: ['a', 'b'], pattern: 'x', newValue: 'y' })).toBe(
      'replace “x” → “y” in 2 files'
    )
    expect(metadataSummary({ kind: 'generic', tool: 'browse', entries: [['url', 'u']] })).toBe('browse url=u')
    expect(metadataSummary({ kind: 'none' })).toBe('')
  })

  it('keeps long values short', () => {
    const text = metadataSummary({ kind: 'command', command: 'x'.repeat(1000) })
    expect(text.length).toBe(160)
    expect(text.endsWith('…')).toBe(true)
  })

  it('reads a step', () => {
    expect(stepSummary(step('s', '2025-01-01T00:00:00Z', { tool: 'run_command_in_sandbox', command: 'ls' }))).toBe(
      '$ ls'
    )
  })
})

describe('timelineOrder', () => {
  it('puts the oldest step first without changing the input', () => {
    const steps = [step('b', '2025-01-02T00:00:00Z'), step('a', '2025-01-01T00:00:00Z'), step('c', 'bad')]
    expect(timelineOrder(steps).map((s) => s.id)).toEqual(['c', 'a', 'b'])
    expect(steps.map((s) => s.id)).toEqual(['b', 'a', 'c'])
  })
})
