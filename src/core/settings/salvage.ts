// Reads what it can from JSON that was cut short (a disk full, a crash mid-write by another
// tool, a hand edit saved half-way): the longest prefix that ends on a whole value, with its
// open brackets closed. Returns undefined when nothing can be read.

interface Cut {
  /** End of the prefix to keep. */
  at: number
  /** Closing brackets for the containers open at that point. */
  closers: string
}

const MAX_ATTEMPTS = 200

export function salvageJson(text: string): unknown {
  const cuts: Cut[] = []
  const stack: string[] = []
  let inString = false
  let escaped = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (escaped) escaped = false
      else if (ch === '\\') escaped = true
      else if (ch === '"') inString = false
      continue
    }
    if (ch === '"') inString = true
    else if (ch === '{' || ch === '[') {
      stack.push(ch === '{' ? '}' : ']')
      cuts.push({ at: i + 1, closers: [...stack].reverse().join('') })
    } else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return undefined
      cuts.push({ at: i + 1, closers: [...stack].reverse().join('') })
    } else if (ch === ',') {
      // Everything before a comma at this depth is a whole member or element.
      cuts.push({ at: i, closers: [...stack].reverse().join('') })
    }
  }
  // The text may end right after a whole value (only closing brackets lost).
  if (!inString) cuts.push({ at: text.length, closers: [...stack].reverse().join('') })
  for (const cut of cuts.reverse().slice(0, MAX_ATTEMPTS)) {
    try {
      return JSON.parse(text.slice(0, cut.at) + cut.closers)
    } catch {
      // An earlier cut may still parse (e.g. this one ends inside a key with no value yet).
    }
  }
  return undefined
}
