// What the window formats beyond src/shared/format (money, tokens, durations and relative
// times live there, shared with the command).
import { formatTokens } from '../../shared/format'

/** Token counts: the one form, shared/format's formatTokens, under the name the task screen knows. */
export const formatCount: (value: number | null | undefined) => string = formatTokens

/** Milliseconds between two ISO times, or null when either is unreadable or time runs back. */
export function durationMs(fromIso: string, toIso: string): number | null {
  const from = Date.parse(fromIso)
  const to = Date.parse(toIso)
  if (Number.isNaN(from) || Number.isNaN(to) || to < from) return null
  return to - from
}

// Made once: toLocaleString with options builds a new formatter on every call, which costs
// milliseconds on a screen that formats many times.
let dateTimeFormat: Intl.DateTimeFormat | undefined
let timeFormat: Intl.DateTimeFormat | undefined

/** A readable local date and time; the raw text when it is not a date. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '–'
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return iso
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit'
  })
  return dateTimeFormat.format(t)
}

/** A local time of day with seconds, for rows where the date is known from context. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '–'
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return iso
  timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
  return timeFormat.format(t)
}

/** The label of a step type; null types are plain steps. */
export function stepTypeLabel(type: string | null, raw?: string): string {
  if (type === null) return 'Step'
  if (type === 'unknown') return raw ?? 'Unknown type'
  if (type === 'ai_agent_message') return 'AI agent message'
  const words = type.replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}
