import { describe, expect, it } from 'vitest'
import { salvageJson } from './salvage'

describe('salvageJson', () => {
  const whole = JSON.stringify(
    { version: 2, watched: { c1: [{ projectId: 'p1' }, { projectId: 'p2' }] }, theme: 'dark' },
    null,
    '\t'
  )

  it('keeps every whole value before the cut, and says it was cut short', () => {
    const cut = whole.slice(0, whole.indexOf('p2') + 1)
    // The second project was cut inside its id: only its opening brace survives.
    expect(salvageJson(cut)).toMatchObject({
      value: { version: 2, watched: { c1: [{ projectId: 'p1' }, {}] } },
      cutShort: true
    })
  })

  it('recovers the whole document when only the last bracket is missing', () => {
    expect(salvageJson(whole.slice(0, -1))).toMatchObject({ value: JSON.parse(whole), cutShort: true })
  })

  it('names the objects and lists the cut left open, which may miss members, and only those', () => {
    const read = salvageJson(whole.slice(0, whole.indexOf('p2') + 1))!
    const value = read.value as { watched: { c1: object[] } }
    expect(read.partial).toEqual([value, value.watched, value.watched.c1, value.watched.c1[1]])
    expect(read.partial).not.toContain(value.watched.c1[0])
  })

  it('never keeps a number that the cut may have shortened', () => {
    expect(salvageJson('{"a": 1, "budgetUsd": 12')).toMatchObject({ value: { a: 1 }, cutShort: true })
    expect(salvageJson('{"a": 1, "budgetUsd": 12 ')).toMatchObject({ value: { a: 1, budgetUsd: 12 }, cutShort: true })
  })

  it('keeps what comes before damage in the middle, and does not call it cut short', () => {
    expect(salvageJson('{"a": 1, "b": ["x", 3}, "c": 4}')).toMatchObject({ value: { a: 1, b: ['x'] }, cutShort: false })
    expect(salvageJson('{"a": 1, "b": tru, "c": 4}')).toMatchObject({ value: { a: 1 }, cutShort: false })
    expect(salvageJson('{"a": "x", "b": "y\nz", "c": 4}')).toMatchObject({ value: { a: 'x' }, cutShort: false })
  })

  it('brackets, commas and escaped quotes inside strings are text, not structure', () => {
    const read = salvageJson('{"a": "x, y]}", "b": "say \\"] ok", "c": {"d": "cu')
    expect(read).toEqual({
      value: { a: 'x, y]}', b: 'say "] ok', c: {} },
      cutShort: true,
      partial: [read!.value, (read!.value as { c: object }).c]
    })
    // A text of only whitespace before its value is still JSON; anything else before it is not read from the start.
    expect(salvageJson(' \n{"a": 1, "b": [2')).toMatchObject({ value: { a: 1, b: [] }, cutShort: true })
    expect(salvageJson('x{"a": 1, "b": 2')).toBeUndefined()
    expect(salvageJson('"x", {"a": 1')).toBeUndefined()
  })

  it('keeps the value opened even when its first member is damaged', () => {
    expect(salvageJson('{"a": tru, "b": 1, "c": 2}')).toMatchObject({ value: {}, cutShort: false })
  })

  it('reads an empty key, and a key starting with an escape, as text', () => {
    expect(salvageJson('{"": 1, "b": [2')).toMatchObject({ value: { '': 1, b: [] }, cutShort: true })
    expect(salvageJson('{"\\"x": 1, "b": [2')).toMatchObject({ value: { '"x': 1, b: [] }, cutShort: true })
  })

  it('keeps a whole value the text ends on, closing every container still open', () => {
    expect(salvageJson('{"a": ["x"')).toMatchObject({ value: { a: ['x'] }, cutShort: true })
    expect(salvageJson('{"a": [{"b": [true')).toMatchObject({ value: { a: [{ b: [true] }] }, cutShort: true })
  })

  it('calls a text damaged, not cut short, when anything but its end is missing', () => {
    // A line break inside a string is damage, even in the last member.
    expect(salvageJson('{"a": "x", "b": "y\nz')).toMatchObject({ value: { a: 'x' }, cutShort: false })
    // Damage the scan cannot see (a bad word) before the end.
    expect(salvageJson('{"a": 1, "b": tru, "c": 4')).toMatchObject({ value: { a: 1 }, cutShort: false })
    // A whole value followed by something else.
    expect(salvageJson('{"a": 1} x')).toMatchObject({ value: { a: 1 }, cutShort: false })
    expect(salvageJson('[1, 2]]')).toMatchObject({ value: [1, 2], cutShort: false })
  })

  it('names as open only the containers the cut left open, however many members they hold', () => {
    const list = salvageJson('{"a": [{"x": 1}, {"y": 2}, {"z": 3, "w": tru')!
    const value = list.value as { a: object[] }
    expect(list.partial).toEqual([value, value.a, value.a[2]])
    // A whole object as the last member before the cut is not open.
    const member = salvageJson('{"a": {"b": {"c": 1}}, "d": tru')!
    expect(member.partial).toEqual([member.value])
  })

  it('names only objects and lists as open, even where a key is written twice', () => {
    // JSON.parse keeps a repeated key in its first place: the last member there is a number or null.
    for (const text of ['{"a": 1, "b": 2, "a": {"c": 1, "d": tru', '{"a": 1, "b": null, "a": {"c": 1, "d": tru']) {
      const read = salvageJson(text)!
      expect(read.value).toMatchObject({ a: { c: 1 } })
      expect(read.partial.every((container) => typeof container === 'object' && container !== null)).toBe(true)
    }
  })

  it("reads from the start only after JSON's own white space (a no-break space is not)", () => {
    expect(salvageJson('\u00a0{"a": 1, "b": 2')).toBeUndefined()
    expect(salvageJson('\ufeff[1, 2')).toBeUndefined()
  })

  it('gives up on text that is not JSON at all', () => {
    expect(salvageJson('hello world')).toBeUndefined()
    expect(salvageJson('')).toBeUndefined()
    expect(salvageJson('}{')).toBeUndefined()
  })

  it('reads every prefix of a document without throwing, never more than the document holds', () => {
    for (let end = 0; end <= whole.length; end++) {
      const read = salvageJson(whole.slice(0, end))
      if (read === undefined) continue
      expect(typeof read.value).toBe('object')
      expect(JSON.stringify(read.value).length).toBeLessThanOrEqual(JSON.stringify(JSON.parse(whole)).length)
    }
  })

  it('reads a large file damaged near its start in a few parses (bisection), not one per comma', () => {
    const big = JSON.stringify({ a: 1, b: 'x', list: Array.from({ length: 20_000 }, (_, i) => i) })
    const damaged = big.replace('"x"', 'tru')
    const parse = JSON.parse
    let calls = 0
    JSON.parse = ((...args: Parameters<typeof parse>) => (calls++, parse(...args))) as typeof JSON.parse
    try {
      expect(salvageJson(damaged)).toMatchObject({ value: { a: 1 }, cutShort: false })
    } finally {
      JSON.parse = parse
    }
    expect(calls).toBeLessThan(40)
  })
})
