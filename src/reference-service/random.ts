// Seeded randomness: every random choice of the simulation comes from a stream derived from the
// service seed and a key (a task id, a counter), so results never depend on call order elsewhere.

export type Random = () => number

/** mulberry32: a small, fast 32-bit PRNG giving floats in [0, 1). */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** FNV-1a over a string, 32 bits. */
export function hashString(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

export function streamFor(seed: number, key: string): Random {
  return mulberry32(hashString(`${seed}:${key}`))
}

export function intBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1))
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)]
  if (item === undefined) throw new Error('pick from an empty list')
  return item
}

export function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const a = items[i] as T
    items[i] = items[j] as T
    items[j] = a
  }
  return items
}

const HEX = '0123456789abcdef'

function hex(random: Random, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += HEX[Math.floor(random() * 16)]
  return out
}

const word = (random: Random): string =>
  Math.floor(random() * 4294967296)
    .toString(16)
    .padStart(8, '0')

/** A UUID-v4-shaped id that is a pure function of the stream. */
export function uuidFrom(random: Random): string {
  const a = word(random)
  const b = word(random)
  const c = word(random)
  const d = word(random)
  const variant = HEX[8 + (parseInt(c[0] as string, 16) & 3)] as string
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`
}

export function hexFrom(random: Random, length: number): string {
  return hex(random, length)
}
