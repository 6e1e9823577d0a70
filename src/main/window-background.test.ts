import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { WINDOW_BACKGROUND, windowBackground } from './window-background'

describe('windowBackground', () => {
  it('picks the dark or the light colour', () => {
    expect(windowBackground(true)).toBe(WINDOW_BACKGROUND.dark)
    expect(windowBackground(false)).toBe(WINDOW_BACKGROUND.light)
    expect(WINDOW_BACKGROUND.dark).not.toBe(WINDOW_BACKGROUND.light)
  })

  it("matches the renderer's --bg in app.css, light and dark", () => {
    const css = readFileSync(new URL('../renderer/app.css', import.meta.url), 'utf8')
    const m = /--bg:\s*light-dark\(\s*(#[0-9a-fA-F]{3,8})\s*,\s*(#[0-9a-fA-F]{3,8})\s*\)/.exec(css)
    expect(m, 'app.css declares --bg: light-dark(<light>, <dark>)').not.toBeNull()
    expect(WINDOW_BACKGROUND.light).toBe(m![1]!.toLowerCase())
    expect(WINDOW_BACKGROUND.dark).toBe(m![2]!.toLowerCase())
  })
})
