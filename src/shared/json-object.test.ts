import { describe, expect, it } from 'vitest'
import { isJsonObject } from './json-object'

describe('isJsonObject', () => {
  it('is true for an object only: never null, a list, or a scalar', () => {
    expect(isJsonObject({})).toBe(true)
    expect(isJsonObject({ a: 1 })).toBe(true)
    for (const other of [null, undefined, [], [1], 'x', 1, true]) expect(isJsonObject(other)).toBe(false)
  })
})
