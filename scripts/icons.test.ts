import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { encodePng, ICON_STATES, iconFiles, render, trayIconName, trayScene } from './icons'

/** Reads back the PNGs our encoder writes (8-bit RGBA, filter 0), checking every CRC. */
function decode(png: Buffer): { width: number; height: number; rgba: Uint8Array } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  let offset = 8
  let width = 0
  let height = 0
  const idat: Buffer[] = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('ascii', offset + 4, offset + 8)
    const data = png.subarray(offset + 8, offset + 8 + length)
    const crc = png.readUInt32BE(offset + 8 + length)
    expect(crc).toBe(crcOf(png.subarray(offset + 4, offset + 8 + length)))
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      expect([data[8], data[9]]).toEqual([8, 6])
    }
    if (type === 'IDAT') idat.push(data)
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  const rgba = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * 4 + 1)]).toBe(0)
    rgba.set(raw.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)), y * width * 4)
  }
  return { width, height, rgba }
}

// An independent bitwise CRC-32, so the encoder's table is checked against something else.
function crcOf(bytes: Uint8Array): number {
  let c = ~0
  for (const b of bytes) {
    c ^= b
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
  }
  return ~c >>> 0
}

const RESOURCES = fileURLToPath(new URL('../resources', import.meta.url))

const alphaMask = (rgba: Uint8Array): number[] => [...rgba].filter((_, i) => i % 4 === 3).map((a) => (a >= 128 ? 1 : 0))

describe('encodePng', () => {
  it('writes a PNG that reads back to the same pixels', () => {
    const pixels = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 1, 2, 3, 4, 9, 9, 9, 9, 7, 7, 7, 7])
    const back = decode(encodePng(pixels, 3, 2))
    expect(back.width).toBe(3)
    expect(back.height).toBe(2)
    expect([...back.rgba]).toEqual([...pixels])
  })
})

describe('tray icons', () => {
  it('tells every state apart by shape alone (template masks differ clearly)', () => {
    const masks = ICON_STATES.map((s) => alphaMask(render(trayScene(s, 'template'), 16)))
    for (let i = 0; i < masks.length; i++) {
      for (let j = i + 1; j < masks.length; j++) {
        const differing = masks[i]!.filter((v, k) => v !== masks[j]![k]).length
        expect(differing, `${ICON_STATES[i]} vs ${ICON_STATES[j]}`).toBeGreaterThanOrEqual(12)
      }
    }
  })

  it('draws template images in black only, and panel variants in two different inks', () => {
    const t = render(trayScene('running', 'template'), 16)
    for (let i = 0; i < t.length; i += 4) if (t[i + 3]! > 0) expect([t[i], t[i + 1], t[i + 2]]).toEqual([0, 0, 0])
    const light = render(trayScene('idle', 'lightpanel'), 16)
    const dark = render(trayScene('idle', 'darkpanel'), 16)
    const lum = (p: Uint8Array) => {
      let sum = 0
      let n = 0
      for (let i = 0; i < p.length; i += 4) {
        if (p[i + 3] !== 255) continue
        sum += p[i]! + p[i + 1]! + p[i + 2]!
        n++
      }
      return sum / n / 3
    }
    expect(lum(light)).toBeLessThan(80)
    expect(lum(dark)).toBeGreaterThan(200)
  })

  it('names files the way Electron looks them up', () => {
    expect(trayIconName('idle', 'template', 1)).toBe('idleTemplate.png')
    expect(trayIconName('idle', 'template', 2)).toBe('idleTemplate@2x.png')
    expect(trayIconName('error', 'darkpanel', 2)).toBe('error-darkpanel@2x.png')
  })

  it('matches the committed files in resources/', () => {
    for (const f of iconFiles().filter((x) => x.path !== 'icon.png')) {
      const committed = decode(readFileSync(join(RESOURCES, f.path)))
      const fresh = decode(f.png())
      expect(committed.width, f.path).toBe(fresh.width)
      expect(Buffer.from(committed.rgba).equals(Buffer.from(fresh.rgba)), `${f.path} is stale: run npm run icons`).toBe(
        true
      )
    }
  })

  it('has a 512 px app icon', () => {
    const icon = decode(readFileSync(join(RESOURCES, 'icon.png')))
    expect([icon.width, icon.height]).toEqual([512, 512])
  })
})
