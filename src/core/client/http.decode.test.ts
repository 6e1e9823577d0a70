import { describe, expect, it } from 'vitest'
import { decodeChunks } from './http'

const split = (bytes: Buffer, at: number[]): Uint8Array[] => {
  const out: Uint8Array[] = []
  let from = 0
  for (const to of [...at, bytes.length]) {
    out.push(bytes.subarray(from, to))
    from = to
  }
  return out
}

describe('decodeChunks', () => {
  it('decodes a character split across chunks once the chunks are joined', () => {
    const bytes = Buffer.from('{"name":"café — 東京"}', 'utf8')
    const cut = bytes.indexOf(Buffer.from('é')) + 1
    expect(decodeChunks(split(bytes, [cut, cut + 3]), bytes.length)).toBe('{"name":"café — 東京"}')
  })

  it('reuses its buffer without leaking a longer earlier body into a shorter one', () => {
    const long = Buffer.from(`[${'"x",'.repeat(5000)}"end"]`)
    const short = Buffer.from('["short"]')
    expect(decodeChunks(split(long, [100, 7000]), long.length)).toBe(long.toString('utf8'))
    expect(decodeChunks(split(short, [3]), short.length)).toBe('["short"]')
  })

  it('decodes one chunk as it is, and a body larger than the kept buffer', () => {
    const one = Buffer.from('{"a":1}')
    expect(decodeChunks([one], one.length)).toBe('{"a":1}')
    const big = Buffer.alloc(5 * 1024 * 1024, 0x61)
    const text = decodeChunks(split(big, [1024, 3 * 1024 * 1024]), big.length)
    expect(text.length).toBe(big.length)
    expect(text.endsWith('aaa')).toBe(true)
  })
})
