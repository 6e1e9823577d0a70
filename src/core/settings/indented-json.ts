// Reads what is whole of a damaged JSON file written one member or element per line, as the
// settings store writes it (writeIndentedJson: a tab per level). Each line is read on its own and
// placed by its indentation rather than by the brackets before it, so a damaged line loses only
// itself and what it held, wherever it is and whatever bracket or quote the damage broke.
//
// A line's indentation is trusted only when it fits a neighbour: in this layout a line is one level
// deeper than an opener before it, at the level of a value or closer before it, and one level up for
// a closer. The neighbour is the nearest readable line (or the file's start), and each unreadable
// line between may have been an opener or a closer, so a whole line between two damaged ones still
// fits. A line whose indentation was damaged fits neither neighbour and is left out, so it cannot
// end, replace or join a container it does not belong to (nor can a line at the left edge, where
// only the root's braces sit). Beyond that:
// - a container's lines go into it only while it is open: a closer at its depth ends it, and so does
//   a value there after a damaged line (which may have been the closer), and the next opener at that
//   depth replaces it (so a lost closer costs nothing, and what a lost opener held never goes into
//   the container before it at its depth); a value there with nothing damaged since strayed, and
//   ends nothing;
// - a list item under an object, or a member under a list, is refused;
// - what an unreadable opener held (its parent lost, its own line damaged, or damage joining it to
//   the line before) is read and dropped, never added to the container before it;
// - the first value of a key wins, so a line that strayed later cannot replace a whole one, and the
//   object is marked partial (the store never writes a key twice).
// Damage that shifts two neighbouring lines alike can still mislead it, and so can one damaged line
// in a file too small for the indentation step to outvote it; one change, or several apart,
// cannot (indented-json.property.test.ts, damage.property.test.ts).

type Container = { kind: 'object'; value: Record<string, unknown> } | { kind: 'array'; value: unknown[] }
/**
 * What a depth holds now: an open container; one whose place is unknown ('lost': its lines are
 * read and dropped); one that a closer ended; or nothing yet.
 */
type Slot = Container | 'lost' | 'closed' | undefined

interface Line {
  depth: number
  kind: 'opener' | 'closer' | 'values' | 'unreadable'
  /** opener: its key (undefined for a list item) and bracket. */
  key?: string | undefined
  bracket?: string
  /** values: the members of an object, or the items of a list, the line holds. */
  read?: { as: 'object'; value: Record<string, unknown> } | { as: 'array'; value: unknown[] }
}

export interface IndentedRead {
  /** The root object with every member that could be placed (the root is always an object here). */
  value: Record<string, unknown>
  /** Lines that could not be read or placed. */
  damagedLines: number
  /**
   * The objects and lists of `value` that may miss something: a damaged line fell inside, their end
   * is missing, or one of their members is partial.
   */
  partial: WeakSet<object>
  /** The text ends before the root's closing brace, with nothing damaged before its last line. */
  cutShort: boolean
}

// `"key": {`, `"key": [`, `{` or `[`: a container whose members follow on the next lines.
// eslint-disable-next-line no-control-regex
const OPENER = /^(?:("(?:[^"\\\u0000-\u001f]|\\.)*")\s*:\s*)?([{[])$/
const CLOSER = /^[}\]],?$/
// eslint-disable-next-line no-control-regex
const KEY_START = /^"(?:[^"\\\u0000-\u001f]|\\.)*"\s*:/

/**
 * The layout the settings files are written in (through Conf, see settingsConfOptions): one member
 * or element per line, a tab per level, the layout readIndentedJson reads past damage.
 */
export function writeIndentedJson(value: unknown): string {
  return JSON.stringify(value, undefined, '\t')
}

function isContainer(slot: Slot): slot is Container {
  return typeof slot === 'object'
}

function parse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T
  } catch {
    return undefined
  }
}

/** Adds `value` at the end of a list, or under `key` (which an object's member always has); false when the key is taken. */
function attach(parent: Container, key: string | undefined, value: unknown): boolean {
  if (parent.kind === 'array') {
    parent.value.push(value)
    return true
  }
  if (Object.hasOwn(parent.value, key!)) return false
  // defineProperty: a "__proto__" key is data here, as in JSON.parse, never the prototype.
  Object.defineProperty(parent.value, key!, { value, enumerable: true, writable: true, configurable: true })
  return true
}

/**
 * The indentation step (one tab as the store writes; two or four spaces by hand): the change of
 * indentation most often seen from one line to the next, which one damaged line cannot outvote.
 */
function indentUnit(widths: number[]): number {
  const counts = new Map<number, number>()
  for (let i = 1; i < widths.length; i++) {
    const step = Math.abs(widths[i]! - widths[i - 1]!)
    if (step > 0) counts.set(step, (counts.get(step) ?? 0) + 1)
  }
  let unit = 1
  let seen = 0
  for (const [step, count] of counts) if (count > seen || (count === seen && step < unit)) [unit, seen] = [step, count]
  return unit
}

function readLine(content: string, depth: number): Line {
  if (CLOSER.test(content)) return { depth, kind: 'closer', bracket: content[0]! }
  const opener = OPENER.exec(content)
  if (opener) {
    const key = opener[1] === undefined ? undefined : parse<string>(opener[1])
    if (opener[1] === undefined || key !== undefined) return { depth, kind: 'opener', key, bracket: opener[2]! }
  }
  // A whole value per line (possibly several, where damage joined two lines): members where it
  // starts with a key, items otherwise (only an empty line would read both ways).
  const body = content.endsWith(',') ? content.slice(0, -1) : content
  if (KEY_START.test(body)) {
    const value = parse<Record<string, unknown>>(`{${body}}`)
    if (value !== undefined) return { depth, kind: 'values', read: { as: 'object', value } }
  } else {
    const value = parse<unknown[]>(`[${body}]`)
    if (value !== undefined) return { depth, kind: 'values', read: { as: 'array', value } }
  }
  return { depth, kind: 'unreadable' }
}

/**
 * Whether `b` may come after `a` in a file written by writeIndentedJson, with `between` unreadable
 * lines between them, each of which may have moved the level by one. Right after an opener comes a
 * line one level deeper, never a closer (an empty container is written on one line).
 */
function follows(a: Line, b: Line, between: number): boolean {
  const opens = a.kind === 'opener' || a.kind === 'unreadable'
  if (between === 0 && opens && b.kind === 'closer') return false
  const level = opens ? a.depth + 1 : a.depth
  return Math.abs((b.kind === 'closer' ? b.depth + 1 : b.depth) - level) <= between
}

/** Before the first line, as if after an opener one level above the root: the root's `{` comes next. */
const FILE_START: Line = { depth: -1, kind: 'opener' }

export function readIndentedJson(text: string): IndentedRead {
  // Without the CR of a CRLF line end, which would hide the bracket an opener ends in.
  const raw = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
  const nonBlank = raw.filter((line) => line.trim() !== '')
  const widths = nonBlank.map((line) => line.length - line.trimStart().length)
  const unit = indentUnit(widths)
  const lines: Line[] = nonBlank.map((line, i) => {
    // Only the root's braces sit at the left edge: any other line there lost its indentation.
    const offEdge = widths[i] === 0 && !/^[{}]$/.test(line.trim())
    const depth = widths[i]! % unit === 0 && !offEdge ? widths[i]! / unit : -1
    // Cut short in a number, the last line may hold a different number: it is not trusted.
    const cutInNumber = i === nonBlank.length - 1 && raw.at(-1) === line && /\d$/.test(line)
    return depth === -1 || cutInNumber ? { depth, kind: 'unreadable' } : readLine(line.trim(), depth)
  })
  const readable = (i: number) => lines[i]!.kind !== 'unreadable'
  const previous: number[] = []
  for (let i = 0, last = -1; i < lines.length; i++) {
    previous[i] = last
    if (readable(i)) last = i
  }
  const next: number[] = []
  for (let i = lines.length - 1, last = -1; i >= 0; i--) {
    next[i] = last
    if (readable(i)) last = i
  }
  /**
   * The line's indentation fits the nearest readable line before it (or the file's start) or after
   * it. The unreadable lines between may have moved the level; but an unreadable line's own
   * indentation may be what the damage changed, so it must fit a neighbour as if right next to it.
   */
  const fits = (i: number) => {
    const between = (j: number) => (readable(i) ? Math.abs(j - i) - 1 : 0)
    const before = previous[i] !== -1 ? lines[previous[i]!]! : readable(i) ? FILE_START : undefined
    return (
      (before !== undefined && follows(before, lines[i]!, between(previous[i]!))) ||
      (next[i] !== -1 && follows(lines[i]!, lines[next[i]!]!, between(next[i]!)))
    )
  }

  const root: Container = { kind: 'object', value: {} }
  const open: Slot[] = [root]
  const partial = new WeakSet<object>()
  const marked: object[] = []
  /** Each container's parent, so that what is partial makes what holds it partial too. */
  const parents = new WeakMap<object, object>()
  const mark = (container: object) => {
    if (partial.has(container)) return
    partial.add(container)
    marked.push(container)
  }
  let damagedLines = 0

  /** Every container open from `depth` on is partial (it ends without its closer, or a damaged line fell in it). */
  const markOpen = (depth: number) => {
    for (const slot of open.slice(depth)) if (isContainer(slot)) mark(slot.value)
  }
  /** For each open depth, the last line placed in its container (or its opener); and the last line found damaged. */
  const lastLineIn: number[] = []
  let lastDamaged = -1
  const openAt = (depth: number, slot: Slot) => {
    markOpen(slot === 'closed' ? depth + 1 : depth)
    open[depth] = slot
    open.length = depth + 1
  }

  function place(line: Line): boolean {
    const { depth } = line
    const parent = open[depth - 1]
    switch (line.kind) {
      case 'closer': {
        const slot = open[depth]
        if (slot !== 'lost' && !(isContainer(slot) && (line.bracket === '}') === (slot.kind === 'object'))) return false
        openAt(depth, 'closed')
        return true
      }
      case 'opener': {
        if (isContainer(parent) && (line.key !== undefined) !== (parent.kind === 'object')) return false
        const child: Container = line.bracket === '{' ? { kind: 'object', value: {} } : { kind: 'array', value: [] }
        // With no place to go (its parent lost, or its key taken) it is lost, and so is all it holds.
        const placed = isContainer(parent) && attach(parent, line.key, child.value)
        // A key twice is damage (the store never writes one twice): a key was changed into another.
        if (isContainer(parent) && !placed) mark(parent.value)
        if (placed) parents.set(child.value, parent.value)
        openAt(depth, placed ? child : 'lost')
        return true
      }
      case 'values': {
        // A container still open at this depth whose closer may be a damaged line since its last line
        // has ended: a line one level deeper needs an opener after this one. With no damaged line
        // since, the container is certainly open and this line strayed (lines pasted alike): it ends
        // nothing, so the container's next lines still go into it.
        if (lastDamaged > (lastLineIn[depth] ?? -1)) openAt(depth, undefined)
        if (parent === 'lost') return true
        const read = line.read!
        if (!isContainer(parent) || parent.kind !== read.as) return false
        // A list's items in order (attach leaves out their indexes), or an object's members.
        for (const [key, value] of Object.entries(read.value)) if (!attach(parent, key, value)) mark(parent.value)
        return true
      }
      case 'unreadable':
        return false
    }
  }

  let damagedBeforeLast = false
  lines.forEach((line, i) => {
    // Every settings file is one object: its braces are taken as read, so damage to them costs nothing.
    if (line.depth === 0) return
    if (fits(i) && place(line)) {
      for (let d = 0; d < line.depth; d++) lastLineIn[d] = i
      if (line.kind === 'opener') lastLineIn[line.depth] = i
      return
    }
    damagedLines++
    lastDamaged = i
    if (i < lines.length - 1) damagedBeforeLast = true
    markOpen(0)
    // An unreadable line that ends in a bracket and fits as an opener was one (or, where damage
    // joined two lines, ended one container and opened the next): what follows it is lost with it.
    if (line.kind === 'unreadable' && line.depth > 0 && /[{[]$/.test(nonBlank[i]!) && fits(i)) {
      openAt(line.depth, 'lost')
      lastLineIn[line.depth] = i
    }
  })
  markOpen(0)
  const endsWhole = nonBlank.at(-1)?.trim() === '}' && lines.at(-1)?.depth === 0
  for (const container of [...marked]) {
    for (let up = parents.get(container); up !== undefined; up = parents.get(up)) mark(up)
  }
  return { value: root.value, damagedLines, partial, cutShort: !endsWhole && !damagedBeforeLast }
}
