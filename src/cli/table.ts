// Aligned columns for people: each column as wide as its widest cell, the last one left ragged.

export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map((r) => displayWidth(r[i] ?? ''))))
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
    const width = Math.max(...rows.map((r) => displayWidth(r[col] ?? '')))
    for (const r of rows) r[col] = ' '.repeat(width - displayWidth(r[col] ?? '')) + (r[col] ?? '')
  }
  return rows
}

/** Key/value lines: "Name:        my project". */
export function renderFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([k]) => k.length)) + 1
  return fields.map(([k, v]) => `${(k + ':').padEnd(width)}  ${v}`).join('\n') + '\n'
}

function displayWidth(s: string): number {
  return [...s].length
}

/** One line, at most `max` characters: names and descriptions must not break a table. */
export function oneLine(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}
