// Draws the tray icons and the app icon into RGBA buffers and writes them as PNG: pure Node,
// so anyone can regenerate them (`npm run icons`) without an image editor.
//
// Every state differs by shape, not only colour (Linux has no tray title, some users cannot
// tell the colours apart): idle is the bare glyph, running adds a dot, attention a warning
// triangle with "!", error a diamond with a bar, offline hollows the glyph and strikes it through, and needs-you (a
// task waiting for your answer) a speech bubble with three dots.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deflateSync } from 'node:zlib'

export type IconState = 'idle' | 'running' | 'attention' | 'offline' | 'error' | 'needs-you'
export const ICON_STATES: readonly IconState[] = ['idle', 'running', 'attention', 'offline', 'error', 'needs-you']
export type Variant = 'lightpanel' | 'darkpanel' | 'template'

type RGBA = readonly [number, number, number, number]
type Inside = (x: number, y: number) => boolean
interface Op {
  inside: Inside
  /** null erases (destination-out). */
  color: RGBA | ((x: number, y: number) => RGBA) | null
}

// ---- shapes, in a 16-unit design space ----

const circle =
  (cx: number, cy: number, r: number): Inside =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r

const roundedRect =
  (x0: number, y0: number, x1: number, y1: number, r: number): Inside =>
  (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false
    const dx = Math.max(x0 + r - x, 0, x - (x1 - r))
    const dy = Math.max(y0 + r - y, 0, y - (y1 - r))
    return dx * dx + dy * dy <= r * r
  }

/** A line segment with round ends. */
const capsule =
  (ax: number, ay: number, bx: number, by: number, width: number): Inside =>
  (x, y) => {
    const vx = bx - ax
    const vy = by - ay
    const t = Math.max(0, Math.min(1, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy || 1)))
    return (x - ax - t * vx) ** 2 + (y - ay - t * vy) ** 2 <= (width / 2) ** 2
  }

/** A convex polygon, points in order. */
const polygon =
  (points: readonly (readonly [number, number])[]): Inside =>
  (x, y) => {
    let sign = 0
    for (let i = 0; i < points.length; i++) {
      const [ax, ay] = points[i]!
      const [bx, by] = points[(i + 1) % points.length]!
      const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
      if (cross !== 0) {
        if (sign === 0) sign = Math.sign(cross)
        else if (Math.sign(cross) !== sign) return false
      }
    }
    return true
  }

const union =
  (...parts: Inside[]): Inside =>
  (x, y) =>
    parts.some((p) => p(x, y))

// The agent: a rounded head with two eyes and an antenna.
function agent(x0: number, y0: number, size: number): { head: Inside; eyes: Inside; inner: Inside } {
  const u = size / 12
  const head = union(
    roundedRect(x0, y0 + 2 * u, x0 + size, y0 + 12 * u, 3 * u),
    capsule(x0 + 6 * u, y0 + 2 * u, x0 + 6 * u, y0 + 0.9 * u, 1.5 * u),
    circle(x0 + 6 * u, y0 + 0.9 * u, 1 * u)
  )
  const eyes = union(circle(x0 + 3.7 * u, y0 + 6.6 * u, 1.45 * u), circle(x0 + 8.3 * u, y0 + 6.6 * u, 1.45 * u))
  const inner = roundedRect(x0 + 1.6 * u, y0 + 3.6 * u, x0 + size - 1.6 * u, y0 + 10.4 * u, 1.6 * u)
  return { head, eyes, inner }
}

interface Palette {
  glyph: RGBA
  muted: RGBA
  running: RGBA
  attention: RGBA
  error: RGBA
  needsYou: RGBA
}

const BLACK: RGBA = [0, 0, 0, 255]
const PALETTES: Record<Variant, Palette> = {
  // Dark ink for light panels, light ink for dark panels; template images are black + alpha only.
  lightpanel: {
    glyph: [31, 41, 55, 255],
    muted: [107, 114, 128, 255],
    running: [22, 101, 216, 255],
    attention: [217, 119, 6, 255],
    error: [200, 30, 30, 255],
    needsYou: [124, 58, 237, 255]
  },
  darkpanel: {
    glyph: [243, 244, 246, 255],
    muted: [156, 163, 175, 255],
    running: [96, 165, 250, 255],
    attention: [251, 191, 36, 255],
    error: [248, 113, 113, 255],
    needsYou: [196, 181, 253, 255]
  },
  template: { glyph: BLACK, muted: BLACK, running: BLACK, attention: BLACK, error: BLACK, needsYou: BLACK }
}

const BADGE = { cx: 12.5, cy: 12.5 }

export function trayScene(state: IconState, variant: Variant): Op[] {
  const p = PALETTES[variant]
  const a = agent(0.4, 0.6, 11.2)
  const ops: Op[] = []
  if (state === 'offline') {
    // Hollow head, struck through.
    ops.push({ inside: a.head, color: p.muted }, { inside: a.inner, color: null }, { inside: a.eyes, color: p.muted })
    ops.push({ inside: capsule(1.2, 1.6, 14.8, 15.2, 3.6), color: null })
    ops.push({ inside: capsule(1.2, 1.6, 14.8, 15.2, 1.6), color: p.muted })
    return ops
  }
  ops.push({ inside: a.head, color: p.glyph }, { inside: a.eyes, color: null })
  if (state === 'idle') return ops
  // A clear gap between the glyph and the badge, so the badge reads on its own.
  ops.push({ inside: circle(BADGE.cx, BADGE.cy, 4.6), color: null })
  const { cx, cy } = BADGE
  if (state === 'running') {
    ops.push({ inside: circle(cx, cy, 3.3), color: p.running })
  } else if (state === 'attention') {
    ops.push({
      inside: polygon([
        [cx, cy - 3.9],
        [cx + 3.5, cy + 3.2],
        [cx - 3.5, cy + 3.2]
      ]),
      color: p.attention
    })
    ops.push({ inside: union(capsule(cx, cy - 1.5, cx, cy + 0.5, 1.2), circle(cx, cy + 2, 0.6)), color: null })
  } else if (state === 'needs-you') {
    // A speech bubble, its tail down to the left, with three dots: someone waits for your answer.
    ops.push({
      inside: union(
        roundedRect(cx - 3.7, cy - 3.5, cx + 3.4, cy + 2, 1.7),
        polygon([
          [cx - 3, cy + 1],
          [cx - 0.6, cy + 1],
          [cx - 3.3, cy + 4.1]
        ])
      ),
      color: p.needsYou
    })
    ops.push({
      inside: union(
        circle(cx - 2.05, cy - 0.75, 0.75),
        circle(cx - 0.15, cy - 0.75, 0.75),
        circle(cx + 1.75, cy - 0.75, 0.75)
      ),
      color: null
    })
  } else {
    ops.push({
      inside: polygon([
        [cx, cy - 3.6],
        [cx + 3.6, cy],
        [cx, cy + 3.6],
        [cx - 3.6, cy]
      ]),
      color: p.error
    })
    ops.push({ inside: capsule(cx - 1.6, cy, cx + 1.6, cy, 1.25), color: null })
  }
  return ops
}

export function appIconScene(): Op[] {
  const top: RGBA = [59, 130, 246, 255]
  const bottom: RGBA = [29, 78, 216, 255]
  const gradient = (_x: number, y: number): RGBA => {
    const t = Math.min(1, Math.max(0, (y - 1) / 14))
    return [0, 1, 2, 3].map((i) => Math.round(top[i]! + (bottom[i]! - top[i]!) * t)) as unknown as RGBA
  }
  const a = agent(3, 3, 10)
  return [
    { inside: roundedRect(1, 1, 15, 15, 3.2), color: gradient },
    { inside: a.head, color: [255, 255, 255, 255] },
    { inside: a.eyes, color: gradient }
  ]
}

// ---- raster ----

/** Renders ops into an RGBA buffer of size×size, supersampled for smooth edges. */
export function render(ops: Op[], size: number, samples = size <= 64 ? 8 : 3): Uint8Array {
  const out = new Uint8Array(size * size * 4)
  const scale = 16 / size
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0
      let g = 0
      let b = 0
      let a = 0
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) * scale
          const y = (py + (sy + 0.5) / samples) * scale
          // Each sample is either fully covered or not, so compose per sample, then average.
          let c: RGBA = [0, 0, 0, 0]
          for (const op of ops) {
            if (!op.inside(x, y)) continue
            c = op.color === null ? [0, 0, 0, 0] : typeof op.color === 'function' ? op.color(x, y) : op.color
          }
          const alpha = c[3] / 255
          r += c[0] * alpha
          g += c[1] * alpha
          b += c[2] * alpha
          a += alpha
        }
      }
      const i = (py * size + px) * 4
      const n = samples * samples
      out[i + 3] = Math.round((a / n) * 255)
      // Straight (not premultiplied) alpha, as PNG stores it.
      out[i] = a > 0 ? Math.round(r / a) : 0
      out[i + 1] = a > 0 ? Math.round(g / a) : 0
      out[i + 2] = a > 0 ? Math.round(b / a) : 0
    }
  }
  return out
}

// ---- PNG ----

const CRC_TABLE = (() => {
  const t = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c >>> 0
  }
  return t
})()

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** An 8-bit RGBA PNG, every row with filter type 0. */
export function encodePng(rgba: Uint8Array, width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 6 // colour type RGBA
  const raw = Buffer.alloc(height * (width * 4 + 1))
  for (let y = 0; y < height; y++) {
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0))
  ])
}

// ---- files ----

/** The tray icon file for a state: `{state}-{variant}.png`, macOS `{state}Template.png`; @2x beside each. */
export function trayIconName(state: IconState, variant: Variant, scale: 1 | 2): string {
  const base = variant === 'template' ? `${state}Template` : `${state}-${variant}`
  return `${base}${scale === 2 ? '@2x' : ''}.png`
}

export function iconFiles(): { path: string; png: () => Buffer }[] {
  const files: { path: string; png: () => Buffer }[] = []
  for (const state of ICON_STATES) {
    for (const variant of ['lightpanel', 'darkpanel', 'template'] as const) {
      for (const scale of [1, 2] as const) {
        const size = 16 * scale
        files.push({
          path: join('tray', trayIconName(state, variant, scale)),
          png: () => encodePng(render(trayScene(state, variant), size), size, size)
        })
      }
    }
  }
  files.push({ path: 'icon.png', png: () => encodePng(render(appIconScene(), 512), 512, 512) })
  return files
}

function main(): void {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'resources')
  for (const f of iconFiles()) {
    const target = join(root, f.path)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, f.png())
    console.log(`wrote resources/${f.path}`)
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
