// A step's metadata read per known tool; anything unknown or mistyped falls back to a key/value view, so an odd server
// never breaks the timeline.

export type StepMetadataView =
  | { kind: 'file'; tool: 'read_file_from_sandbox' | 'write_file_to_sandbox'; path: string }
  | { kind: 'directory'; path: string }
  | { kind: 'command'; command: string }
  | { kind: 'replace'; files: string[]; pattern: string; newValue: string }
  | { kind: 'generic'; tool: string | null; entries: [key: string, value: string][] }
  | { kind: 'none' }

/** Longest value shown in a generic entry; metadata may carry whole files. */
export const GENERIC_VALUE_MAX = 2_000

export function describeStepMetadata(metadata: Record<string, unknown>): StepMetadataView {
  // The type says object, but the value came from a server: check anyway.
  const value: unknown = metadata
  if (value === null || value === undefined) return { kind: 'none' }
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'generic', tool: null, entries: [['value', show(value)]] }
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  if (keys.length === 0) return { kind: 'none' }
  const tool = record.tool
  switch (tool) {
    case 'read_file_from_sandbox':
    case 'write_file_to_sandbox':
      if (typeof record.path === 'string') return { kind: 'file', tool, path: record.path }
      break
    case 'get_list_of_files_in_sandbox':
      // The path may be empty (the sandbox root); absent is read the same way.
      if (record.path === undefined || typeof record.path === 'string') {
        return { kind: 'directory', path: record.path ?? '' }
      }
      break
    case 'run_command_in_sandbox':
      if (typeof record.command === 'string') return { kind: 'command', command: record.command }
      break
    case 'replace_text_in_files_sandbox': {
      const { files, pattern, new_value: newValue } = record
      if (
        Array.isArray(files) &&
        files.every((f) => typeof f === 'string') &&
        typeof pattern === 'string' &&
        typeof newValue === 'string'
      ) {
        return { kind: 'replace', files: [...files], pattern, newValue }
      }
      break
    }
  }
  return generic(record)
}

function generic(record: Record<string, unknown>): StepMetadataView {
  const tool = typeof record.tool === 'string' ? record.tool : null
  const entries: [string, string][] = []
  for (const key of Object.keys(record)) {
    if (key === 'tool' && tool !== null) continue
    entries.push([key, show(record[key])])
  }
  return { kind: 'generic', tool, entries }
}

function show(value: unknown): string {
  let text: string
  if (typeof value === 'string') text = value
  // JSON.stringify throws on a bigint; undefined, a symbol or a function it gives as undefined (String below).
  else if (typeof value === 'bigint') text = String(value)
  else {
    try {
      text = JSON.stringify(value) ?? String(value)
    } catch {
      // Cycles and the like: a label is better than a crash.
      text = Object.prototype.toString.call(value)
    }
  }
  return text.length > GENERIC_VALUE_MAX ? `${text.slice(0, GENERIC_VALUE_MAX)}…` : text
}
