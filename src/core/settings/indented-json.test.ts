import { describe, expect, it } from 'vitest'
import { readIndentedJson, writeIndentedJson } from './indented-json'

const doc = {
  version: 2,
  connections: [
    { id: 'c1', name: 'Work', baseUrl: 'https://a.example' },
    { id: 'c2', name: 'Home', baseUrl: 'https://b.example' }
  ],
  watched: {
    c1: [
      { projectId: 'p1', name: 'a {brace', budgetUsd: 1.5 },
      { projectId: 'p2', name: 'say "hi", [x]', budgetUsd: null }
    ],
    c2: [{ projectId: 'p3', name: 'back\\slash ✓', muted: true }]
  },
  empty: { list: [], object: {} },
  theme: 'dark'
}
const text = writeIndentedJson(doc)
const lines = text.split('\n')

/** The text with line `n` (counted from 0) replaced. */
function withLine(n: number, line: string): string {
  return lines.map((l, i) => (i === n ? line : l)).join('\n')
}
const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle))

/** Two members pasted at the root's depth into `text` (the file's lines, perhaps damaged) before line `at`. */
function withPasted(text: string[], at: number): string {
  return [...text.slice(0, at), '\t"pasted": 1,', '\t"also": "x",', ...text.slice(at)].join('\n')
}
const connectionsOpener = lineOf('"connections": [')
const firstConnectionEnd = lines.findIndex((l, i) => i > connectionsOpener && l === '\t\t},')

describe('readIndentedJson', () => {
  it('reads a whole file as JSON.parse does, every container whole', () => {
    const read = readIndentedJson(text)
    expect(read).toMatchObject({ value: doc, damagedLines: 0 })
    const watched = read.value.watched as typeof doc.watched
    for (const container of [watched, watched.c1, watched.c1[0]!, read.value.connections as object])
      expect(read.partial.has(container)).toBe(false)
  })

  it('marks what a damaged line fell in, and what lost its end, as partial', () => {
    const read = readIndentedJson(withLine(lineOf('"a {brace"'), '\t\t\t\t"name": "a {br\u0000ace",'))
    const watched = read.value.watched as typeof doc.watched
    expect(read.partial.has(watched.c1[0]!)).toBe(true)
    expect(read.partial.has(watched.c1[1]!)).toBe(false)
    expect(read.partial.has(watched.c2)).toBe(false)
    const cut = readIndentedJson(text.slice(0, text.indexOf('"p2"')))
    const cutWatched = cut.value.watched as typeof doc.watched
    expect(cut.partial.has(cutWatched.c1[0]!)).toBe(false)
    expect(cut.partial.has(cutWatched.c1)).toBe(true)
  })

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const read = readIndentedJson('{\n\t"__proto__": {\n\t\t"polluted": true\n\t},\n\t"x": 1\n')
    expect(Object.getPrototypeOf(read.value)).toBe(Object.prototype)
    expect(Object.keys(read.value)).toEqual(['__proto__', 'x'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('a damaged line loses only itself, wherever the damage is', () => {
    const read = readIndentedJson(withLine(lineOf('"a {brace"'), '\t\t\t\t"name": "a {br\u0000ace",'))
    expect(read.damagedLines).toBe(1)
    expect(read.value.watched).toEqual({
      c1: [{ projectId: 'p1', budgetUsd: 1.5 }, doc.watched.c1[1]],
      c2: doc.watched.c2
    })
    expect(read.value.theme).toBe('dark')
  })

  it('a stray bracket or quote costs one line, not the rest of the file (as it would a prefix reader)', () => {
    for (const damaged of [
      '\t\t\t\t"projectId": "p1"[,',
      '\t\t\t\t"projectId": "p1}",x',
      '\t\t\t\t"projectId": "p1,'
    ]) {
      const read = readIndentedJson(withLine(lineOf('"p1"'), damaged))
      expect(read.value.watched).toEqual({
        c1: [{ name: 'a {brace', budgetUsd: 1.5 }, doc.watched.c1[1]],
        c2: doc.watched.c2
      })
      expect(read.value.connections).toEqual(doc.connections)
    }
  })

  it('a closer that lost its indentation does not end the container around it', () => {
    // The first project's closer, one level shallower: it would close c1's list, and p2 would be lost.
    const closer = lines.findIndex((l, i) => i > lineOf('"a {brace"') && l.trim() === '},')
    const read = readIndentedJson(withLine(closer, '\t\t},'))
    expect((read.value.watched as typeof doc.watched).c1.map((p) => p.projectId)).toEqual(['p1', 'p2'])
  })

  it('an opener that lost its indentation does not replace the container around it', () => {
    // c1's key one level up would sit at the top level and take c2 from `watched`.
    const read = readIndentedJson(withLine(lineOf('"c1": ['), '\t"c1": ['))
    expect(read.value.watched).toEqual({ c2: doc.watched.c2 })
    expect(read.value).not.toHaveProperty('c1')
  })

  it('two lines joined by damage (a line break changed) lose what they opened, never add it to the container before', () => {
    const key = lineOf('"c2": [')
    const joined = [...lines.slice(0, key - 1), `${lines[key - 1]}\u000b${lines[key]}`, ...lines.slice(key + 1)].join(
      '\n'
    )
    const read = readIndentedJson(joined)
    expect(read.value.watched).toEqual({ c1: doc.watched.c1 })
  })

  it('a whole line between two damaged ones is kept: they may have held the closer and opener that change the depth', () => {
    // `"watched": {` is whole, but the line before it (the connections' closer) reads as nothing and
    // the one after it lost its indentation, so its nearest readable neighbours are two levels away.
    const damaged = withLine(lineOf('"c1": ['), '1": [')
      .split('\n')
      .map((l, i, all) => (all[i + 1]?.includes('"watched": {') ? `\u0000${l}` : l))
      .join('\n')
    const read = readIndentedJson(damaged)
    expect(read.value.watched).toEqual({ c2: doc.watched.c2 })
    expect(read.value.connections).toEqual(doc.connections)
    expect(read.value.theme).toBe('dark')
  })

  it("a whole line after a damaged start is kept: the file's start counts as a neighbour", () => {
    // The root's `{` and the next key's start are cut away, and c1's item opener is joined to the
    // line after it: `"connections": [` has no readable line before it and none at its depth after it.
    const first = lineOf('"id": "c1"')
    const damaged = [
      ...lines.slice(0, first - 1),
      `${lines[first - 1]}\u000b${lines[first]}`,
      ...lines.slice(first + 1)
    ]
      .join('\n')
      .slice(5)
    const read = readIndentedJson(damaged)
    expect(read.value.connections).toEqual([doc.connections[1]])
    expect(read.value.watched).toEqual(doc.watched)
  })

  it('a lost closer costs nothing: the next opener at its depth takes over', () => {
    const closer = lines.findIndex((l, i) => i > lineOf('"a {brace"') && l.trim() === '},')
    const read = readIndentedJson(withLine(closer, ''))
    const c1 = (read.value.watched as typeof doc.watched).c1
    expect(c1.map((p) => p.projectId)).toEqual(['p1', 'p2'])
    // What lost its end is partial, whether an opener or a value comes next at its depth.
    expect(read.partial.has(c1[0]!)).toBe(true)
    expect(read.partial.has(c1[1]!)).toBe(false)
    const beforeValue = readIndentedJson('{\n\t"a": {\n\t\t"x": 1\n\t"v": 2,\n\t"b": {\n\t\t"y": 2\n\t}\n}')
    expect(beforeValue.value).toEqual({ a: { x: 1 }, v: 2, b: { y: 2 } })
    expect(beforeValue.partial.has(beforeValue.value.a as object)).toBe(true)
    expect(beforeValue.partial.has(beforeValue.value.b as object)).toBe(false)
  })

  it('never takes a number at the very end, which a cut may have shortened', () => {
    const cut = text.slice(0, text.indexOf('1.5') + 2)
    const read = readIndentedJson(cut)
    expect((read.value.watched as typeof doc.watched).c1).toEqual([{ projectId: 'p1', name: 'a {brace' }])
  })

  it('reads files indented with spaces, as an editor may save them', () => {
    for (const indent of [2, 4]) {
      const spaced = JSON.stringify(doc, null, indent)
      const cut = spaced.slice(0, spaced.indexOf('"c2": [') + 8)
      expect(readIndentedJson(cut).value.watched).toEqual({ c1: doc.watched.c1, c2: [] })
    }
  })
})

describe('readIndentedJson, rule by rule', () => {
  /** Every object and list of `value`, the root left out (it is always counted partial). */
  const containers = (value: unknown): object[] =>
    typeof value === 'object' && value !== null
      ? Object.values(value).flatMap((v) => (typeof v === 'object' && v !== null ? [v, ...containers(v)] : []))
      : []

  it('reads CRLF line ends, and spaces left after a line, as the file written', () => {
    for (const damaged of [text.replaceAll('\n', '\r\n'), lines.map((l) => `${l} \t`).join('\n'), `${text}\r\n`]) {
      const read = readIndentedJson(damaged)
      expect(read).toMatchObject({ value: doc, damagedLines: 0, cutShort: false })
      for (const container of containers(read.value)) expect(read.partial.has(container)).toBe(false)
    }
  })

  it('a line that lost all its indentation is damaged: counted, and what held it partial', () => {
    const read = readIndentedJson(withLine(lineOf('"p2"'), '"projectId": "p2",'))
    expect(read.damagedLines).toBe(1)
    const c1 = (read.value.watched as typeof doc.watched).c1
    expect(c1[1]).toEqual({ name: 'say "hi", [x]', budgetUsd: null })
    expect(read.partial.has(c1[1]!)).toBe(true)
    expect(read.partial.has(c1[0]!)).toBe(false)
  })

  it('a closer of the wrong bracket ends nothing: counted, and its container partial', () => {
    const closer = lines.findIndex((l, i) => i > lineOf('"a {brace"') && l.trim() === '},')
    const read = readIndentedJson(withLine(closer, '\t\t\t],'))
    expect(read.value).toEqual(doc)
    expect(read.damagedLines).toBe(1)
    const c1 = (read.value.watched as typeof doc.watched).c1
    expect(read.partial.has(c1[0]!)).toBe(true)
    expect(read.partial.has(c1[1]!)).toBe(false)
  })

  it('refuses a list item under an object and a member under a list', () => {
    const small = writeIndentedJson({ tags: ['a', 'b', 'c'], n: { x: 1, y: 2 }, m: { z: 3 } }).split('\n')
    const at = (needle: string) => small.findIndex((l) => l.includes(needle))
    const replaced = (n: number, line: string) => small.map((l, i) => (i === n ? line : l)).join('\n')

    const member = readIndentedJson(replaced(at('"b"'), '\t\t"k": "b",'))
    expect(member.value).toEqual({ tags: ['a', 'c'], n: { x: 1, y: 2 }, m: { z: 3 } })
    expect(member.damagedLines).toBe(1)
    expect(member.partial.has(member.value.tags as object)).toBe(true)

    const keyedOpener = readIndentedJson(replaced(at('"b"'), '\t\t"k": {'))
    expect(keyedOpener.value.tags).toEqual(['a', 'c'])

    const item = readIndentedJson(replaced(at('"x"'), '\t\t1,'))
    expect(item.value).toEqual({ tags: ['a', 'b', 'c'], n: { y: 2 }, m: { z: 3 } })
    expect(item.damagedLines).toBe(1)
    expect(item.partial.has(item.value.n as object)).toBe(true)

    // An item's opener under the root: refused, and so is all it held (it has no place): four lines.
    const itemOpener = readIndentedJson(replaced(at('"n": {'), '\t{'))
    expect(itemOpener.value).toEqual({ tags: ['a', 'b', 'c'], m: { z: 3 } })
    expect(itemOpener.damagedLines).toBe(4)
  })

  it('the first value of a key wins (a line that strayed later cannot replace it), and its object is partial', () => {
    const twice = [
      '{',
      '\t"o": {',
      '\t\t"a": 1,',
      '\t\t"b": {',
      '\t\t\t"x": 1',
      '\t\t},',
      '\t\t"a": 2,',
      '\t\t"b": [',
      '\t\t\t3',
      '\t\t]',
      '\t},',
      '\t"p": {',
      '\t\t"y": 2',
      '\t}',
      '}'
    ]
    const read = readIndentedJson(twice.join('\n'))
    expect(read.value).toEqual({ o: { a: 1, b: { x: 1 } }, p: { y: 2 } })
    // Every line is whole and in its place: the second "b" and what it held are read and dropped.
    expect(read.damagedLines).toBe(0)
    const { o, p } = read.value as { o: { b: object }; p: object }
    expect(read.partial.has(o)).toBe(true)
    expect(read.partial.has(o.b)).toBe(false)
    expect(read.partial.has(p)).toBe(false)
    // A key's second opener alone marks its object too.
    const opener = readIndentedJson(
      ['{', '\t"o": {', '\t\t"b": 1,', '\t\t"b": [', '\t\t\t3', '\t\t]', '\t}', '}'].join('\n')
    )
    expect(opener.value).toEqual({ o: { b: 1 } })
    expect(opener.partial.has(opener.value.o as object)).toBe(true)
  })

  it('gives plain data, as JSON.parse does: members can be changed and removed', () => {
    const read = readIndentedJson(text.slice(0, text.indexOf('"theme"')))
    const watched = read.value.watched as Record<string, unknown>
    read.value.version = 3
    delete watched.c2
    expect(read.value.version).toBe(3)
    expect(watched).toEqual({ c1: doc.watched.c1 })
  })

  it('members pasted at the wrong depth inside a list, with nothing damaged, end nothing: every item is kept', () => {
    for (const at of [connectionsOpener + 1, firstConnectionEnd + 1]) {
      const read = readIndentedJson(withPasted(lines, at))
      expect(read.value.connections).toEqual(doc.connections)
      expect(read.value.watched).toEqual(doc.watched)
      expect(read.value).toMatchObject({ pasted: 1, also: 'x', theme: 'dark' })
    }
  })

  it('pasted members end nothing when the damage came before the list, or before them in the list', () => {
    const paste = (text: string[], at: number) => readIndentedJson(withPasted(text, at))
    // Damage before the list: "version" is lost, the list is whole.
    const versionLost = lines.map((l) => (l.includes('"version"') ? '\t"vers\u0000ion": 2,' : l))
    expect(paste(versionLost, connectionsOpener + 1).value).toMatchObject({ connections: doc.connections, pasted: 1 })
    expect(paste(versionLost, connectionsOpener + 1).value.version).toBeUndefined()
    // Damage in the list's first item: its name is lost, the second item whole.
    const nameLost = lines.map((l) => (l.includes('"Work"') ? '\t\t\t"na\u0000me": "Work",' : l))
    const read = paste(nameLost, firstConnectionEnd + 1)
    expect(read.value.connections).toEqual([{ id: 'c1', baseUrl: 'https://a.example' }, doc.connections[1]])
    expect(read.damagedLines).toBe(1)
  })

  it('a line pasted right after a damaged opener ends nothing: what the opener held is dropped with it, not counted as damaged', () => {
    const read = readIndentedJson(
      ['{', '\t"a\u0000": [', '\t"v": 1,', '\t\t1,', '\t\t2', '\t],', '\t"z": 3', '}'].join('\n')
    )
    expect(read.value).toEqual({ v: 1, z: 3 })
    expect(read.damagedLines).toBe(1)
  })

  it('an opener damaged past reading loses what it held, never adds it to the container before it at its depth', () => {
    // Two lines apart: the closer of "a", and the bracket of "b"'s opener.
    const small = writeIndentedJson({ a: { x: 1 }, v: 2, b: { y: 3, w: [4] }, z: 4 }).split('\n')
    small[small.indexOf('\t},')] = '\t}\u0000'
    small[small.indexOf('\t"b": {')] = '\t"b": {\u0000'
    const read = readIndentedJson(small.join('\n'))
    expect(read.value).toEqual({ a: { x: 1 }, v: 2, z: 4 })
    expect(read.partial.has(read.value.a as object)).toBe(true)
    // The two lines, "y" and b's closer, with no container to go in, are damaged; "w", whose own
    // container is lost, is read and dropped with what it held.
    expect(read.damagedLines).toBe(4)
  })

  it('what an opener joined to the line before held is read and dropped: one damaged line', () => {
    const key = lineOf('"c2": [')
    for (const eol of ['\n', '\r\n']) {
      const joined = [...lines.slice(0, key - 1), `${lines[key - 1]}${lines[key]}`, ...lines.slice(key + 1)].join(eol)
      const read = readIndentedJson(joined)
      expect(read.value.watched).toEqual({ c1: doc.watched.c1 })
      expect(read.damagedLines).toBe(1)
      expect(read.partial.has(read.value.watched as object)).toBe(true)
    }
  })

  it('a key that JSON cannot read (a broken escape) makes its opener damaged, and what it held is dropped', () => {
    const read = readIndentedJson(withLine(lineOf('"c2": ['), '\t\t"c\\x2": ['))
    expect(read.value.watched).toEqual({ c1: doc.watched.c1 })
    expect(read.damagedLines).toBe(1)
  })

  it('a closer right after its opener (what it held lost) with nothing after it to vouch for it is damaged', () => {
    const read = readIndentedJson('{\n\t"a": {\n\t}')
    expect(read.value).toEqual({ a: {} })
    expect(read.damagedLines).toBe(1)
    expect(read.partial.has(read.value.a as object)).toBe(true)
    // Whole, the same closer is read; and with a damaged line between them, which may have been what it held.
    const whole = readIndentedJson('{\n\t"a": {\n\t\t"x": 1\n\t}')
    expect(whole.damagedLines).toBe(0)
    expect(whole.partial.has(whole.value.a as object)).toBe(false)
    expect(readIndentedJson('{\n\t"a": {\n\t\t"x\u0000": 1\n\t}')).toMatchObject({ value: { a: {} }, damagedLines: 1 })
  })

  it("the file's start vouches, as a level above the root brace, for a whole line after damage with nothing after it", () => {
    expect(readIndentedJson('\u0000\n\t"a": true')).toMatchObject({ value: { a: true }, damagedLines: 1 })
  })

  it('a file whose start is lost reads from the first line it can place', () => {
    const read = readIndentedJson('\t\t"x": 1,\n\t\t"y": 2\n\t},\n\t"b": 2\n}')
    expect(read.value).toEqual({ b: 2 })
    expect(read.damagedLines).toBe(3)
    expect(read.cutShort).toBe(false)
  })

  it('a stray line before the root brace costs nothing, even one ending in a bracket', () => {
    for (const stray of ['// settings {', '"settings": {']) {
      const read = readIndentedJson(`${stray}\n${text}`)
      expect(read.value).toEqual(doc)
      expect(read.damagedLines).toBe(1)
    }
  })

  it('a closer that lost all its indentation is damaged too (only the root braces sit at the left edge)', () => {
    const closer = lines.findIndex((l, i) => i > lineOf('"a {brace"') && l.trim() === '},')
    const read = readIndentedJson(withLine(closer, '},'))
    const c1 = (read.value.watched as typeof doc.watched).c1
    expect(c1.map((p) => p.projectId)).toEqual(['p1', 'p2'])
    expect(read.damagedLines).toBe(1)
    expect(read.partial.has(c1[0]!)).toBe(true)
  })

  it('a whole last line after a damaged one is kept: the readable line before the damaged one vouches for it', () => {
    const read = readIndentedJson('{\n\t"a": 1,\n\t"b\u0000": 2,\n\t"c": true')
    expect(read.value).toEqual({ a: 1, c: true })
    expect(read.damagedLines).toBe(1)
  })

  it('a whole line between a line pushed deeper and a damaged closer is kept: the line after the closer vouches for it', () => {
    const read = readIndentedJson('{\n\t"o": {\n\t\t\t"r": 1,\n\t\t"l": 2\n\t}\u0000\n\t"n": 3\n}')
    expect(read.value).toEqual({ o: { l: 2 }, n: 3 })
    expect(read.damagedLines).toBe(2)
  })

  it('a line whose indentation is not a whole number of steps is damaged, even next to another damaged line', () => {
    const spaced = [
      '{',
      '  "a": {',
      '    "x": 1,',
      '    "bad\u0000",',
      '     "y": [',
      '      1',
      '     ],',
      '    "z": 2',
      '  },',
      '  "b": {',
      '    "p": 1',
      '  },',
      '  "c": {',
      '    "q": 1',
      '  }',
      '}'
    ]
    const read = readIndentedJson(spaced.join('\n'))
    expect(read.value).toEqual({ a: { x: 1, z: 2 }, b: { p: 1 }, c: { q: 1 } })
    expect(read.damagedLines).toBe(4)
  })

  it('never takes a number at the very end (a cut may have shortened it), but takes any other whole last line', () => {
    const small = writeIndentedJson({ a: [[12], [12]], t: true, n: 34 })
    const at = (needle: string) => small.indexOf(needle) + needle.length
    // The last 12 is distrusted; the same line before it is whole.
    expect(readIndentedJson(small.slice(0, at('\t\t\t12\n\t\t],\n\t\t[\n\t\t\t12'))).value).toEqual({ a: [[12], []] })
    expect(readIndentedJson(small.slice(0, at('"t": true'))).value).toEqual({ a: [[12], [12]], t: true })
    expect(readIndentedJson('{\n\t"k1": true').value).toEqual({ k1: true })
    expect(readIndentedJson(small.slice(0, at('"t": true,'))).value).toEqual({ a: [[12], [12]], t: true })
    expect(readIndentedJson(small.slice(0, at('"n": 3'))).value).toEqual({ a: [[12], [12]], t: true })
    expect(readIndentedJson(small.slice(0, at('"n": 34'))).value).toEqual({ a: [[12], [12]], t: true })
    expect(readIndentedJson(`${small.slice(0, at('"n": 34'))}\n`).value).toEqual({ a: [[12], [12]], t: true, n: 34 })
  })

  it('says cut short exactly when the text ends before the root brace with nothing damaged before its last line', () => {
    expect(readIndentedJson(text).cutShort).toBe(false)
    expect(readIndentedJson(text.slice(0, text.indexOf('"p2"') + 3)).cutShort).toBe(true)
    expect(readIndentedJson(text.slice(0, text.lastIndexOf('}'))).cutShort).toBe(true)
    // The closer of a container, not the root's, at the end.
    expect(readIndentedJson(text.slice(0, text.indexOf('"c2"') - 4)).cutShort).toBe(true)
    const damagedBefore = withLine(lineOf('"p1"'), '\t\t\t\t"projectId": "p1\u0000",')
    expect(readIndentedJson(damagedBefore.slice(0, damagedBefore.indexOf('"p2"') + 3)).cutShort).toBe(false)
    expect(readIndentedJson('').cutShort).toBe(true)
    expect(readIndentedJson('{\n')).toMatchObject({ value: {}, damagedLines: 0, cutShort: true })
    expect(readIndentedJson('').value).toEqual({})
  })

  it('takes the indentation step most often seen between neighbouring lines, a tie going to the smaller', () => {
    // Two spaces a level; "b" pushed two levels deeper, which makes as many steps of four as of two.
    const read = readIndentedJson('{\n  "a": 1,\n      "b": 2,\n  "c": 3\n}')
    expect(read.value).toEqual({ a: 1, c: 3 })
    expect(read.damagedLines).toBe(1)
    // The same where the damaged steps are seen first (a member and a closer pushed deeper).
    const seenFirst = readIndentedJson('{\n      "a": 1,\n  "b": {\n    "x": 1,\n    "y": 2\n        },\n  "c": 3\n}')
    expect(seenFirst).toMatchObject({ value: { b: { x: 1, y: 2 }, c: 3 }, damagedLines: 2 })
    // One line off by a space among more whole ones, whatever the order its steps are seen in.
    const first = readIndentedJson('{\n   "a": 1,\n  "b": {\n    "x": 1\n  },\n  "c": 3\n}')
    expect(first).toMatchObject({ value: { b: { x: 1 }, c: 3 }, damagedLines: 1 })
    const later = readIndentedJson('{\n  "a": {\n    "x": 1,\n     "y": 2\n  },\n  "b": 2\n}')
    expect(later).toMatchObject({ value: { a: { x: 1 }, b: 2 }, damagedLines: 1 })
  })
})
