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

describe('readIndentedJson', () => {
  it('reads a whole file as JSON.parse does, every container whole', () => {
    const read = readIndentedJson(text)
    expect(read).toMatchObject({ value: doc, damagedLines: 0 })
    const watched = read.value.watched as typeof doc.watched
    for (const container of [watched, watched.c1, watched.c1[0]!, read.value.connections as object]) expect(read.partial.has(container)).toBe(false)
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
    expect(read.value.watched).toEqual({ c1: [{ projectId: 'p1', budgetUsd: 1.5 }, doc.watched.c1[1]], c2: doc.watched.c2 })
    expect(read.value.theme).toBe('dark')
  })

  it('a stray bracket or quote costs one line, not the rest of the file (as it would a prefix reader)', () => {
    for (const damaged of ['\t\t\t\t"projectId": "p1"[,', '\t\t\t\t"projectId": "p1}",x', '\t\t\t\t"projectId": "p1,']) {
      const read = readIndentedJson(withLine(lineOf('"p1"'), damaged))
      expect(read.value.watched).toEqual({ c1: [{ name: 'a {brace', budgetUsd: 1.5 }, doc.watched.c1[1]], c2: doc.watched.c2 })
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
    const joined = [...lines.slice(0, key - 1), `${lines[key - 1]}\u000b${lines[key]}`, ...lines.slice(key + 1)].join('\n')
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
    const damaged = [...lines.slice(0, first - 1), `${lines[first - 1]}\u000b${lines[first]}`, ...lines.slice(first + 1)].join('\n').slice(5)
    const read = readIndentedJson(damaged)
    expect(read.value.connections).toEqual([doc.connections[1]])
    expect(read.value.watched).toEqual(doc.watched)
  })

  it('a lost closer costs nothing: the next opener at its depth takes over', () => {
    const closer = lines.findIndex((l, i) => i > lineOf('"a {brace"') && l.trim() === '},')
    const read = readIndentedJson(withLine(closer, ''))
    expect((read.value.watched as typeof doc.watched).c1.map((p) => p.projectId)).toEqual(['p1', 'p2'])
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
