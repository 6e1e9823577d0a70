import { describe, expect, it } from 'vitest'
import { providerStepIcon, stepIcon } from './step-icon'

describe('stepIcon', () => {
  it('names what each known tool did', () => {
    expect(stepIcon({ type: null, metadata: { tool: 'read_file_from_sandbox', path: 'a.ts' } })).toBe('read')
    expect(stepIcon({ type: null, metadata: { tool: 'write_file_to_sandbox', path: 'a.ts' } })).toBe('write')
    expect(stepIcon({ type: null, metadata: { tool: 'get_list_of_files_in_sandbox', path: '' } })).toBe('list')
    expect(stepIcon({ type: null, metadata: { tool: 'run_command_in_sandbox', command: 'npm test' } })).toBe('command')
    expect(
      stepIcon({
        type: null,
        metadata: { tool: 'replace_text_in_files_sandbox', files: ['a'], pattern: 'x', new_value: 'y' }
      })
    ).toBe('replace')
  })

  it('falls back to the special type, then to a tool or a plain step', () => {
    expect(stepIcon({ type: 'ai_agent_message', metadata: {} })).toBe('message')
    expect(stepIcon({ type: 'image_understanding', metadata: {} })).toBe('look')
    expect(stepIcon({ type: 'research', metadata: {} })).toBe('research')
    expect(stepIcon({ type: 'image_generation', metadata: {} })).toBe('draw')
    expect(stepIcon({ type: null, metadata: { tool: 'take_preview_screenshot', url: '/' } })).toBe('tool')
    expect(stepIcon({ type: 'unknown', metadata: {} })).toBe('step')
    expect(stepIcon({ type: null, metadata: {} })).toBe('step')
    // Metadata of no tool (odd keys, or a server's non-object) is a plain step, not a tool.
    expect(stepIcon({ type: null, metadata: { note: 'thinking' } })).toBe('step')
    expect(stepIcon({ type: null, metadata: 'text' as unknown as Record<string, unknown> })).toBe('step')
  })

  it('a known tool whose keys have the wrong types is a generic tool, not its usual icon', () => {
    expect(stepIcon({ type: null, metadata: { tool: 'read_file_from_sandbox', path: 42 } })).toBe('tool')
  })

  it('the tool says more than the type', () => {
    expect(stepIcon({ type: 'research', metadata: { tool: 'run_command_in_sandbox', command: 'ls' } })).toBe('command')
  })
})

describe('providerStepIcon', () => {
  const tool = (title: string) => providerStepIcon({ kind: 'tool_call', title }, 'svc')

  it('a tool call gets the icon of what its tool did, else the tool icon', () => {
    expect(tool('read_file')).toBe('read')
    expect(tool('edit_file')).toBe('write')
    expect(tool('list_dir')).toBe('list')
    expect(tool('run_terminal_cmd')).toBe('command')
    expect(tool('grep_search')).toBe('research')
    expect(tool('search_replace')).toBe('replace')
    expect(tool('fetch_rules')).toBe('tool')
    expect(tool('')).toBe('tool')
  })

  it('what the agent or the user said is a message; the service speaking by its own name too', () => {
    expect(providerStepIcon({ kind: 'agentMessaged', title: 'Done' }, 'svc')).toBe('message')
    expect(providerStepIcon({ kind: 'user_message', title: 'Go on' }, 'svc')).toBe('message')
    expect(providerStepIcon({ kind: 'user', title: 'Go on' }, 'svc')).toBe('message')
    expect(providerStepIcon({ kind: 'result', title: 'Result after 30 s' }, 'svc')).toBe('message')
    expect(providerStepIcon({ kind: 'svc', title: 'I will start' }, 'svc')).toBe('message')
    expect(providerStepIcon({ kind: 'svc', title: 'I will start' }, null)).toBe('step')
  })

  it('thinking is research; any other kind is a plain step', () => {
    expect(providerStepIcon({ kind: 'thinking', title: 'Hmm' }, 'svc')).toBe('research')
    expect(providerStepIcon({ kind: 'planGenerated', title: 'Plan' }, 'svc')).toBe('step')
    expect(providerStepIcon({ kind: 'session', title: 'Fix it' }, 'svc')).toBe('step')
  })
})
