// The screen checks can fail: each part of expectScreenAccessible catches what it is there for,
// on a page made to break that part only.
import { expect, test } from '@playwright/test'
import { DEFAULT_WINDOW, expectScreenAccessible } from '../window.helpers'

test.use({ colorScheme: 'light', viewport: DEFAULT_WINDOW })

/** A page styled as the window is: light-dark() pairs that follow the OS. */
const page = (style: string, body: string): string => `<!doctype html><html lang="en"><head><title>Check</title><style>
  :root { color-scheme: light dark; } body { background: light-dark(#ffffff, #1b1e22); color: light-dark(#1b1f24, #e8eaed); }
  ${style}</style></head><body><main><h1>Screen</h1>${body}</main></body></html>`

test('a page that is fine in every part passes', async ({ page: p }) => {
  await p.setContent(page('', '<p id="key">All good.</p>'))
  await expectScreenAccessible(p, 'fine', p.locator('#key'))
})

test('the whole of axe runs in the first theme', async ({ page: p }) => {
  await p.setContent(page('', '<button id="key"></button>'))
  await expect(expectScreenAccessible(p, 'unnamed button', p.locator('#key'))).rejects.toThrow(
    /button-name \(critical\)/
  )
})

test('a violation of minor or moderate impact fails too', async ({ page: p }) => {
  // An h3 straight after the h1 skips a level: heading-order, of moderate impact.
  await p.setContent(page('', '<h3 id="key">Skipped a level</h3>'))
  await expect(expectScreenAccessible(p, 'heading skipped', p.locator('#key'))).rejects.toThrow(
    /heading-order \(moderate\)/
  )
})

test("the other theme's contrast is checked", async ({ page: p }) => {
  // Readable in light, dark grey on near-black in dark.
  await p.setContent(
    page('.low { color: light-dark(#1b1f24, #3a3d42); }', '<p id="key" class="low">Hard to read in the dark.</p>')
  )
  await expect(expectScreenAccessible(p, 'dark contrast', p.locator('#key'))).rejects.toThrow(
    /dark theme: color-contrast \(serious\)/
  )
})

test('the wide layout is checked: nothing overflows sideways', async ({ page: p }) => {
  await p.setContent(
    page('@media (min-width: 800px) { .wide { width: 1400px; } }', '<p id="key" class="wide">Too wide when wide.</p>')
  )
  await expect(expectScreenAccessible(p, 'wide overflow', p.locator('#key'))).rejects.toThrow(
    /horizontal overflow on wide overflow, 1100×800/
  )
})
