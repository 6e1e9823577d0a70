// One line per step for the timeline rows; the full rendering is StepMetadata.svelte.
import type { TaskStep } from '../../shared/service'
import { describeStepMetadata, type StepMetadataView } from '../../shared/step-metadata'

const MAX = 160

export function metadataSummary(view: StepMetadataView): string {
  let text: string
  switch (view.kind) {
    case 'file':
      text = `${view.tool === 'read_file_from_sandbox' ? 'read' : 'write'} ${view.path}`
      break
    case 'directory':
      text = `list ${view.path === '' ? '(root)' : view.path}`
      break
    case 'command':
      text = `$ ${view.command}`
      break
    case 'replace':
      text = `replace “${view.pattern}” → “${view.newValue}” in ${view.files.length} ${view.files.length === 1 ? 'file' : 'files'}`
      break
    case 'generic':
      text = [view.tool ?? '', ...view.entries.map(([k, v]) => `${k}=${v}`)].filter((s) => s !== '').join(' ')
      break
    case 'none':
      text = ''
      break
  }
  return oneLine(text)
}

/** Any text as a row's second line: one line, at most MAX characters. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line
}

export function stepSummary(step: TaskStep): string {
  return metadataSummary(describeStepMetadata(step.metadata))
}

/** The timeline's order: oldest first, by creation time, then id. */
export function timelineOrder(steps: readonly TaskStep[]): TaskStep[] {
  return [...steps].sort((a, b) => {
    const ta = Date.parse(a.created_at)
    const tb = Date.parse(b.created_at)
    return (Number.isNaN(ta) ? 0 : ta) - (Number.isNaN(tb) ? 0 : tb) || a.id.localeCompare(b.id)
  })
}
