// Reads what it can from JSON that was cut short or damaged in one place (a disk full, a crash
// mid-write by another tool, a hand edit saved half-way): the longest prefix that ends on a whole
// value, with its open brackets closed. Nothing in it is invented: a value cut in the middle (a
// string, a number) is left out, never kept shortened. For one-line files; files written one
// member per line are read line by line as well (indented-json.ts), which also reads past damage.

interface Cut {
  /** End of the prefix to keep. */
  at: number
  /** Closing brackets for the containers open at that point. */
  closers: string
}

export interface Salvaged {
  value: unknown
  /** The whole text was the start of a JSON value: it was cut short, not damaged inside. */
  cutShort: boolean
  /** The objects and lists that the cut left open (they may miss members), outermost first. */
  partial: object[]
}

function attempt(text: string, cut: Cut): { value: unknown } | null {
  const candidate = text.slice(0, cut.at) + cut.closers
  try {
    return { value: JSON.parse(candidate) }
  } catch {
    return null
  }
}

export function salvageJson(text: string): Salvaged | undefined {
  // A prefix is read only from the start of a value; what begins otherwise is for the line reader.
  if (!/^\s*[{[]/.test(text)) return undefined
  const cuts: Cut[] = []
  const stack: string[] = []
  let inString = false
  let escaped = false
  let brokenAt = -1
  for (let i = 0; i < text.length && brokenAt === -1; i++) {
    const ch = text[i]
    if (inString) {
      if (escaped) escaped = false
      else if (ch === '\\') escaped = true
      else if (ch === '"') inString = false
      // A raw line break ends no JSON string: the damage is here.
      else if (ch === '\n') brokenAt = i
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{' || ch === '[') {
      stack.push(ch === '{' ? '}' : ']')
      cuts.push({ at: i + 1, closers: [...stack].reverse().join('') })
    } else if (ch === '}' || ch === ']') {
      // A bracket that closes nothing open: everything from here on is unreadable.
      if (stack.at(-1) !== ch) brokenAt = i
      else {
        stack.pop()
        cuts.push({ at: i + 1, closers: [...stack].reverse().join('') })
      }
    } else if (ch === ',') {
      // Everything before a comma at this depth is a whole member or element.
      cuts.push({ at: i, closers: [...stack].reverse().join('') })
    }
  }
  // The text may end right after a whole value (only closing brackets lost); not in a number,
  // which may have been longer. (Ended inside a string, or past damage, that cut fails to parse.)
  const mayEndHere = !/\d$/.test(text)
  if (mayEndHere) cuts.push({ at: text.length, closers: [...stack].reverse().join('') })
  // Whether a prefix reads is monotonic in its length (damage stays in every longer prefix), so
  // the longest readable one is found by bisection: a few parses even of a large file.
  let lo = 0
  let hi = cuts.length - 1
  let best: { index: number; value: unknown } | null = null
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const read = attempt(text, cuts[mid]!)
    if (read !== null) {
      best = { index: mid, value: read.value }
      lo = mid + 1
    } else hi = mid - 1
  }
  if (!best) return undefined
  // Cut short: it ended inside a container or a string, nothing unreadable before, and nothing
  // after the chosen cut but the start of one more value.
  const lastStructural = cuts.length - 1 - (mayEndHere ? 1 : 0)
  const cutShort = brokenAt === -1 && best.index >= lastStructural && (stack.length > 0 || inString)
  return { value: best.value, cutShort, partial: rightmost(best.value, cuts[best.index]!.closers.length) }
}

/**
 * The containers open at a cut: the value itself, its last member, that one's last member, and so on.
 * A key written twice (a hand edit; the store never does) keeps its first place in the parsed object,
 * so there the walk may stop short of the open container, at a value that is none: only objects and
 * lists are listed.
 */
function rightmost(value: unknown, depth: number): object[] {
  const out: object[] = []
  let at = value
  for (let i = 0; i < depth && typeof at === 'object' && at !== null; i++) {
    out.push(at)
    at = Array.isArray(at) ? at.at(-1) : Object.values(at).at(-1)
  }
  return out
}
