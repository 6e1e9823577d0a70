// Small helpers for the window specs: calls through the page's bridge (as the window makes them)
// and the ids the reference service gave the demo.
import { expect, type Locator, type Page } from '@playwright/test'
import type { AgentFakeKind } from '../src/reference-service'
import type { InvokeChannel, IpcResult, RequestOf, ResponseOf } from '../src/shared/ipc'
import type { TestHost } from './host'
import { axeViolations } from './support/axe'

/** The window's default size (the tray popover), and a wide one where the detail sits beside the list. */
export const DEFAULT_WINDOW = { width: 420, height: 640 } as const
export const WIDE_WINDOW = { width: 1100, height: 800 } as const

/** One bridge call from inside the page; throws on a failure so a setup step cannot pass silently. */
export async function invoke<C extends InvokeChannel>(
  page: Page,
  channel: C,
  request?: RequestOf<C>
): Promise<ResponseOf<C>> {
  const result = (await page.evaluate(
    async ([ch, req]) => {
      const bridge = (globalThis as unknown as { agentTray: Record<string, (r?: unknown) => Promise<unknown>> })
        .agentTray
      return req === undefined ? bridge[ch]!() : bridge[ch]!(req)
    },
    [channel, request] as const
  )) as IpcResult<ResponseOf<C>>
  if (!result.ok) throw new Error(`${channel} failed: ${result.error.kind}: ${result.error.message}`)
  return result.value
}

/** Saves and activates a connection to the host's reference service, as the setup form does. */
export async function connect(page: Page, host: TestHost): Promise<void> {
  const saved = await invoke(page, 'connection:save', {
    connection: { name: 'Reference', baseUrl: host.service.url, publishingDomain: host.service.publishingDomain },
    apiKey: host.serviceApiKey
  })
  await invoke(page, 'connection:activate', { connectionId: saved.id })
}

/** Saves and activates an account of an agent service ('github', 'jules') on the host's fake of it, as Setup does. */
export async function connectAgent(page: Page, host: TestHost, kind: AgentFakeKind, name?: string): Promise<string> {
  const { fake, apiKey } = host.agents[kind]
  const saved = await invoke(page, 'connection:save', {
    connection: { name: name ?? `${kind} fake`, baseUrl: fake.baseUrl, publishingDomain: '', service: kind },
    apiKey
  })
  await invoke(page, 'connection:activate', { connectionId: saved.id })
  return saved.id
}

/** The watched project with this name (demo projects have fixed names, random ids). */
export async function projectIdByName(page: Page, name: string): Promise<string> {
  const state = await invoke(page, 'app:get-state')
  const found = state.projects.find((p) => (p.project?.name ?? p.watched.name) === name)
  if (!found)
    throw new Error(`No watched project named ${name}: ${state.projects.map((p) => p.watched.name).join(', ')}`)
  return found.watched.projectId
}

/** The value a description list gives a term (its `dd` right after the `dt` of that exact text). */
export const definitionOf = (list: Locator, term: string): Locator => list.locator(`dt:text-is("${term}") + dd`)

export async function openHash(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    ;(globalThis as unknown as { location: { hash: string } }).location.hash = h
  }, hash)
}

/**
 * What a theme changes: colours only (app.css's light-dark() pairs), so in the second theme these
 * rules are the ones whose answer can differ; the rest of axe gave its answer in the first.
 */
export const THEME_RULES = ['color-contrast', 'link-in-text-block'] as const

/** axe on what the page shows now: no violation of any impact (of `rules` only, when given). */
export async function expectNoViolations(page: Page, screen: string, rules?: readonly string[]): Promise<void> {
  const violations = (await axeViolations(page, rules)).map(
    (v) => `${screen}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`
  )
  expect(violations).toEqual([])
}

/**
 * Nothing scrolls or sticks out sideways: the page is no wider than the window, no box scrolls
 * horizontally, and no visible element reaches past the window's right edge.
 */
export async function expectNoHorizontalOverflow(page: Page, screen: string): Promise<void> {
  // The page's DOM as far as this check reads it (the e2e code compiles without the DOM lib).
  interface El {
    tagName: string
    id: string
    classList: Iterable<string> & { length: number }
    scrollWidth: number
    clientWidth: number
    getBoundingClientRect(): { width: number; height: number; right: number }
    ownerDocument: { defaultView: { getComputedStyle(el: El): { overflowX: string; visibility: string } } | null }
    parentElement: El | null
  }
  const problems = await page.evaluate(() => {
    const doc = (
      globalThis as unknown as { document: { documentElement: El; querySelectorAll(s: string): Iterable<El> } }
    ).document
    const root = doc.documentElement
    const width = root.clientWidth
    const out: string[] = []
    if (root.scrollWidth > width) out.push(`the page is ${root.scrollWidth} px wide in ${width}`)
    const name = (el: El): string =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`
    for (const el of doc.querySelectorAll('body *')) {
      const style = el.ownerDocument.defaultView!.getComputedStyle(el)
      if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
        out.push(`${name(el)} scrolls sideways (${el.scrollWidth} in ${el.clientWidth})`)
      }
      const box = el.getBoundingClientRect()
      if (box.width > 1 && box.height > 1 && box.right > width + 1 && style.visibility !== 'hidden') {
        // Cut off by a box that clips (a line ending in an ellipsis) is not sticking out.
        let clip = el.parentElement
        while (clip && el.ownerDocument.defaultView!.getComputedStyle(clip).overflowX === 'visible')
          clip = clip.parentElement
        if (!clip || clip.getBoundingClientRect().right > width + 1)
          out.push(`${name(el)} reaches ${Math.round(box.right)} px`)
      }
    }
    return out
  })
  expect(problems, `horizontal overflow on ${screen}`).toEqual([])
}

/** Nothing of the element's text is cut off: it is as wide and as tall as what it holds. */
export async function expectShownWhole(element: Locator): Promise<void> {
  const size = await element.evaluate((el) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
    scrollHeight: el.scrollHeight,
    clientHeight: el.clientHeight
  }))
  expect(size.scrollWidth, 'cut off at the side').toBeLessThanOrEqual(size.clientWidth)
  expect(size.scrollHeight, 'cut off below').toBeLessThanOrEqual(size.clientHeight)
}

/** Opens the menu button named `menu` (the "…" of a project, the "+" beside New project) and picks `item`. */
export async function chooseFromMenu(page: Page, menu: string, item: string): Promise<void> {
  await page.getByRole('button', { name: menu, exact: true }).click()
  await page.getByRole('menuitem', { name: item, exact: true }).click()
}

/** The page's background colour as computed now. */
const background = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const doc = (
      globalThis as unknown as {
        document: { body: unknown; defaultView: { getComputedStyle(el: unknown): { backgroundColor: string } } }
      }
    ).document
    return doc.defaultView.getComputedStyle(doc.body).backgroundColor
  })

/**
 * Runs `check` with the OS in the other colour scheme (dark when the page is light), then puts
 * the first back. The theme follows the OS through CSS alone; the barrier is the page's own
 * background turning, so what is checked is the other theme.
 */
export async function inOtherTheme(page: Page, check: (scheme: 'light' | 'dark') => Promise<void>): Promise<void> {
  const dark = await page.evaluate(
    () =>
      (globalThis as unknown as { matchMedia(q: string): { matches: boolean } }).matchMedia(
        '(prefers-color-scheme: dark)'
      ).matches
  )
  const [first, other] = dark ? (['dark', 'light'] as const) : (['light', 'dark'] as const)
  const firstBackground = await background(page)
  await page.emulateMedia({ colorScheme: other })
  try {
    await expect.poll(() => background(page), { message: `the ${other} theme took effect` }).not.toBe(firstBackground)
    await check(other)
  } finally {
    await page.emulateMedia({ colorScheme: first })
  }
  await expect.poll(() => background(page), { message: `the ${first} theme is back` }).toBe(firstBackground)
}

/** Runs `check` at `size`, then gives the page its size back. */
export async function atSize(
  page: Page,
  size: { width: number; height: number },
  check: () => Promise<void>
): Promise<void> {
  const before = page.viewportSize() ?? DEFAULT_WINDOW
  await page.setViewportSize(size)
  try {
    await check()
  } finally {
    await page.setViewportSize(before)
  }
}

/**
 * Every guarantee of a screen, each paid for once: the whole of axe in the page's theme at the
 * window's default size with nothing overflowing sideways; in the other theme the rules a theme
 * can change (THEME_RULES); at the wide size the layout: nothing overflows and `key` is shown.
 */
export async function expectScreenAccessible(page: Page, screen: string, key: Locator): Promise<void> {
  expect(page.viewportSize(), "the full check runs at the window's default size").toEqual(DEFAULT_WINDOW)
  await expectNoViolations(page, screen)
  await expectNoHorizontalOverflow(page, screen)
  await expectOneHeading(page, screen)
  await inOtherTheme(page, (scheme) => expectNoViolations(page, `${screen}, ${scheme} theme`, THEME_RULES))
  await expectWideLayout(page, screen, key)
}

/**
 * The wide size's one guarantee, what a flow checked at the default size does not already give:
 * the layout. At 1100 × 800 nothing overflows sideways and `key` is shown; then the default size
 * is back. What the screen says and does is the same at any size, so it is checked once.
 */
export async function expectWideLayout(page: Page, screen: string, key: Locator): Promise<void> {
  await atSize(page, WIDE_WINDOW, async () => {
    await expectNoHorizontalOverflow(page, `${screen}, ${WIDE_WINDOW.width}×${WIDE_WINDOW.height}`)
    await expect(key, `${screen}: shown when wide`).toBeVisible()
    await expectOneHeading(page, `${screen}, wide`)
  })
}

/** One H1 per page: a screen shown beside a list (wide) leaves its own out. */
export async function expectOneHeading(page: Page, screen: string): Promise<void> {
  await expect(page.locator('h1'), `${screen}: exactly one h1`).toHaveCount(1)
}
