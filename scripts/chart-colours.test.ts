// A chart's series colours (app.css --bar-*) must not be read as the accent or a status (ok, warn, danger, info).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const css = readFileSync(new URL('../src/renderer/app.css', import.meta.url), 'utf8')

/** A token's light and dark colours, from `--name: light-dark(#light, #dark);`. */
function colours(name: string): [string, string] {
  const m = new RegExp(`--${name}:\\s*light-dark\\((#[0-9a-f]{6}),\\s*(#[0-9a-f]{6})\\)`, 'i').exec(css)
  if (!m) throw new Error(`app.css has no light-dark() colour for --${name}`)
  return [m[1]!.toLowerCase(), m[2]!.toLowerCase()]
}

/** Hue in degrees and saturation (0–1) of an sRGB hex colour. */
function hueSat(hex: string): { hue: number; sat: number } {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number]
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  const d = max - min
  const light = (max + min) / 2
  const sat = d === 0 ? 0 : d / (1 - Math.abs(2 * light - 1))
  let hue = 0
  if (d !== 0) hue = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4
  return { hue: (hue * 60 + 360) % 360, sat }
}

const hueGap = (a: number, b: number): number => Math.min(Math.abs(a - b), 360 - Math.abs(a - b))

const SERIES = ['bar', 'bar-2', 'bar-3', 'bar-4', 'bar-5', 'bar-6']
const KEPT_FOR_MEANING = ['accent', 'primary', 'focus', 'danger', 'badge', 'ok', 'warn', 'info']

describe("the chart's series colours", () => {
  for (const [theme, i] of [
    ['light', 0],
    ['dark', 1]
  ] as const) {
    it(`in the ${theme} theme, are neither the accent nor a status colour, nor a grey`, () => {
      const taken = KEPT_FOR_MEANING.map((name) => ({ name, colour: colours(name)[i] }))
      for (const series of SERIES) {
        const colour = colours(series)[i]
        const own = hueSat(colour)
        expect(own.sat, `--${series} ${colour} is a colour, not a grey`).toBeGreaterThan(0.35)
        for (const { name, colour: other } of taken) {
          expect(colour, `--${series} is --${name}`).not.toBe(other)
          expect(hueGap(own.hue, hueSat(other).hue), `--${series} ${colour} beside --${name} ${other}`).toBeGreaterThan(
            20
          )
        }
      }
    })
  }

  it('are six different colours in each theme', () => {
    for (const i of [0, 1]) expect(new Set(SERIES.map((s) => colours(s)[i])).size).toBe(SERIES.length)
  })
})
