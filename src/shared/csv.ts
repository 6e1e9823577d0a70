// RFC 4180 CSV; a field that starts like a formula gets a leading apostrophe, so a spreadsheet shows it, never runs it
// (OWASP's "CSV injection").
export type CsvCell = string | number | null

const FORMULA_START = /^[=+\-@\t\r]/
const NEEDS_QUOTES = /[",\r\n]/

/** One field. Numbers are ours and written as they are; text is guarded; null is empty. */
export function csvField(value: CsvCell): string {
  if (value === null) return ''
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  const guarded = FORMULA_START.test(value) ? `'${value}` : value
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded
}

/** CRLF ends lines as RFC 4180 says (files); the command prints LF, as terminals and pipes expect. */
export type CsvLineEnd = '\r\n' | '\n'

export function toCsv(
  header: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  lineEnd: CsvLineEnd = '\r\n'
): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join(lineEnd) + lineEnd
}
