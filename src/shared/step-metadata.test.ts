import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { describeStepMetadata, GENERIC_VALUE_MAX } from './step-metadata'

describe('describeStepMetadata', () => {
  it('shows nothing extra for empty metadata', () => {
    expect(describeStepMetadata({})).toEqual({ kind: 'none' })
  })

  it('reads the file path of read and write', () => {
    expect(describeStepMetadata({ tool: 'read_file_from_sandbox', path: 'src/a.ts' })).toEqual({
      kind: 'file',
      tool: 'read_file_from_sandbox',
      path: 'src/a.ts'
    })
    expect(describeStepMetadata({ tool: 'write_file_to_sandbox', path: 'b.txt' })).toEqual({
      kind: 'file',
      tool: 'write_file_to_sandbox',
      path: 'b.txt'
    })
  })

  it('reads the directory of a listing, empty or absent meaning the root', () => {
    expect(describeStepMetadata({ tool: 'get_list_of_files_in_sandbox', path: 'src' })).toEqual({
      kind: 'directory',
      path: 'src'
    })
    expect(describeStepMetadata({ tool: 'get_list_of_files_in_sandbox', path: '' })).toEqual({
      kind: 'directory',
      path: ''
    })
    expect(describeStepMetadata({ tool: 'get_list_of_files_in_sandbox' })).toEqual({ kind: 'directory', path: '' })
  })

  it('reads the command', () => {
    expect(describeStepMetadata({ tool: 'run_command_in_sandbox', command: 'npm test' })).toEqual({
      kind: 'command',
      command: 'npm test'
    })
  })

  it('reads files, pattern and replacement', () => {
    expect(
      describeStepMetadata({
        tool: 'replace_text_in_files_sandbox',
        files: ['a.ts', 'b.ts'],
        pattern: 'foo',
        new_value: 'bar'
      })
    ).toEqual({ kind: 'replace', files: ['a.ts', 'b.ts'], pattern: 'foo', newValue: 'bar' })
  })

  it('shows an unknown tool as key/value pairs, the tool apart', () => {
    expect(describeStepMetadata({ tool: 'browse_web', url: 'https://x.test', depth: 2, opts: { a: 1 } })).toEqual({
      kind: 'generic',
      tool: 'browse_web',
      entries: [
        ['url', 'https://x.test'],
        ['depth', '2'],
        ['opts', '{"a":1}']
      ]
    })
  })

  it('shows metadata without a tool generically', () => {
    expect(describeStepMetadata({ note: 'hi' })).toEqual({ kind: 'generic', tool: null, entries: [['note', 'hi']] })
  })

  it.each([
    [{ tool: 'read_file_from_sandbox', path: 3 }],
    [{ tool: 'read_file_from_sandbox' }],
    [{ tool: 'write_file_to_sandbox', path: null }],
    [{ tool: 'get_list_of_files_in_sandbox', path: ['a'] }],
    [{ tool: 'run_command_in_sandbox', command: { argv: ['ls'] } }],
    [{ tool: 'run_command_in_sandbox' }],
    [{ tool: 'replace_text_in_files_sandbox', files: 'a.ts', pattern: 'x', new_value: 'y' }],
    [{ tool: 'replace_text_in_files_sandbox', files: ['a.ts', 1], pattern: 'x', new_value: 'y' }],
    [{ tool: 'replace_text_in_files_sandbox', files: ['a.ts'], pattern: /x/, new_value: 'y' }],
    [{ tool: 'replace_text_in_files_sandbox', files: ['a.ts'], pattern: 'x' }]
  ])('falls back to generic when a known tool has a wrong type: %j', (metadata) => {
    const view = describeStepMetadata(metadata as Record<string, unknown>)
    expect(view.kind).toBe('generic')
    if (view.kind === 'generic') {
      expect(view.tool).toBe(metadata.tool)
      expect(view.entries.map(([k]) => k)).toEqual(Object.keys(metadata).filter((k) => k !== 'tool'))
    }
  })

  it('keeps a non-string tool among the entries', () => {
    expect(describeStepMetadata({ tool: 7, path: 'a' })).toEqual({
      kind: 'generic',
      tool: null,
      entries: [
        ['tool', '7'],
        ['path', 'a']
      ]
    })
  })

  it('survives values that are not objects, cycles, bigints and huge strings', () => {
    expect(describeStepMetadata(null as unknown as Record<string, unknown>)).toEqual({ kind: 'none' })
    expect(describeStepMetadata(undefined as unknown as Record<string, unknown>)).toEqual({ kind: 'none' })
    expect(describeStepMetadata('text' as unknown as Record<string, unknown>)).toEqual({
      kind: 'generic',
      tool: null,
      entries: [['value', 'text']]
    })
    expect(describeStepMetadata([1, 2] as unknown as Record<string, unknown>)).toEqual({
      kind: 'generic',
      tool: null,
      entries: [['value', '[1,2]']]
    })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const view = describeStepMetadata({
      tool: 'x',
      cyclic,
      big: 10n,
      nothing: undefined,
      symbol: Symbol('s'),
      fn: function named() {},
      long: 'a'.repeat(5000),
      longest: 'b'.repeat(GENERIC_VALUE_MAX)
    })
    expect(view.kind).toBe('generic')
    if (view.kind !== 'generic') return
    expect(view.entries).toContainEqual(['cyclic', '[object Object]'])
    expect(view.entries).toContainEqual(['big', '10'])
    expect(view.entries).toContainEqual(['nothing', 'undefined'])
    expect(view.entries).toContainEqual(['symbol', 'Symbol(s)'])
    expect(view.entries).toContainEqual(['fn', 'function named() {}'])
    expect(view.entries).toContainEqual(['longest', 'b'.repeat(GENERIC_VALUE_MAX)])
    const long = view.entries.find(([k]) => k === 'long')?.[1] ?? ''
    expect(long).toBe(`${'a'.repeat(GENERIC_VALUE_MAX)}…`)
  })

  it('never throws on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()), (anything, dict) => {
        describeStepMetadata(anything as Record<string, unknown>)
        const view = describeStepMetadata({ ...dict, tool: dict.tool ?? 'read_file_from_sandbox' })
        expect(['file', 'directory', 'command', 'replace', 'generic', 'none']).toContain(view.kind)
      })
    )
  })
})
