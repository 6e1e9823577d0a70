// Cells are kept on one line and made safe to print before widths are measured, so the columns stay aligned.
import { escapeUnsafeCharacters } from '../shared/controls'

export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows].map((r) => r.map(onItsLine))
  const widths = header.map((_, i) => widest(all.map((r) => r[i] ?? '')))
  const line = (r: readonly string[]): string =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - displayWidth(cell))))
      .join('  ')
      .trimEnd()
  return all.map(line).join('\n') + '\n'
}

/** Right-aligns numeric columns so amounts line up on their last digit. */
export function alignRight(rows: string[][], columns: readonly number[]): string[][] {
  for (const col of columns) {
    const width = widest(rows.map((r) => r[col] ?? ''))
    for (const r of rows) r[col] = ' '.repeat(width - displayWidth(r[col] ?? '')) + (r[col] ?? '')
  }
  return rows
}

/** Key/value lines: "Name:        my project". */
export function renderFields(fields: readonly (readonly [string, string])[]): string {
  const width = widest(fields.map(([k]) => k)) + 1
  return fields.map(([k, v]) => `${(k + ':').padEnd(width)}  ${onItsLine(v)}`).join('\n') + '\n'
}

/** The widest of the cells (a loop: a list of any length, where spreading it into Math.max would overflow the stack). */
function widest(cells: readonly string[]): number {
  let max = 0
  for (const cell of cells) max = Math.max(max, displayWidth(cell))
  return max
}

function displayWidth(s: string): number {
  return [...s].length
}

/** Line breaks as spaces, and what could act on a terminal written out. */
function onItsLine(text: string): string {
  return escapeUnsafeCharacters(text.replace(/[\r\n]+/g, ' '))
}

/** One line, at most `max` characters: names and descriptions must not break a table. */
export function oneLine(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}
