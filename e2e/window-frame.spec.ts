// The window's frame and its held tokens: an elevated bar that stays put, a segmented control of
// one width, controls of 24 or 28 px, type from the scale, and the health dot and banner on an
// account-wide error.
import type { Page } from '@playwright/test'
import type { TestHost } from './host'
import { expect, test } from './support/fixtures'
import {
  atSize,
  connect,
  DEFAULT_WINDOW,
  inOtherTheme,
  invoke,
  openHash,
  projectIdByName,
  WIDE_WINDOW
} from './window.helpers'

/** The page's DOM as these checks read it (the e2e code compiles without the DOM lib). */
interface El {
  tagName: string
  textContent: string | null
  childNodes: Iterable<{ nodeType: number; textContent: string | null }>
  closest(selector: string): El | null
  matches(selector: string): boolean
  getBoundingClientRect(): { width: number; height: number; left: number; right: number }
}
interface Style {
  visibility: string
  fontSize: string
  boxShadow: string
  paddingLeft: string
  paddingRight: string
  getPropertyValue(property: string): string
}
interface Win {
  document: {
    documentElement: El & { scrollHeight: number }
    querySelector(s: string): El
    querySelectorAll(s: string): Iterable<El>
  }
  scrollY: number
  scrollTo(x: number, y: number): void
  getComputedStyle(el: El): Style
}

const TOP_LEVEL = [
  ['Now', '#/now'],
  ['Projects', '#/projects'],
  ['Costs', '#/costs']
] as const

async function openTopLevel(app: Page, name: string, hash: string): Promise<void> {
  await openHash(app, hash)
  await expect(app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name })).toHaveAttribute(
    'aria-current',
    'page'
  )
  await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
}

async function watchedProject(app: Page, host: TestHost, name: string): Promise<string> {
  await connect(app, host)
  const project = host.service.control.createProject({ name })
  await invoke(app, 'project:watch', { projectId: project.id })
  return project.id
}

/** A colour token as the page computes it (a probe's background), to compare with what is drawn. */
const tokenColour = (app: Page, token: string): Promise<string> =>
  app.evaluate((name) => {
    const doc = (
      globalThis as unknown as {
        document: {
          body: { appendChild(e: unknown): void; removeChild(e: unknown): void }
          createElement(t: string): { style: { background: string } }
          defaultView: { getComputedStyle(e: unknown): { backgroundColor: string } }
        }
      }
    ).document
    const probe = doc.createElement('span')
    probe.style.background = `var(${name})`
    doc.body.appendChild(probe)
    const colour = doc.defaultView.getComputedStyle(probe).backgroundColor
    doc.body.removeChild(probe)
    return colour
  }, token)

test.describe('the bar', () => {
  test.use({ hostOptions: { demo: true }, viewport: DEFAULT_WINDOW })

  test('is elevated in both themes, at the top level and one level down, and stays put while the page scrolls', async ({
    app
  }) => {
    const bar = app.getByRole('banner')
    const shadow = (): Promise<string> =>
      bar.evaluate((el) => (globalThis as unknown as Win).getComputedStyle(el as unknown as El).boxShadow)
    for (const hash of ['#/now', '#/settings']) {
      await openHash(app, hash)
      await expect(app.getByRole('heading', { level: 1 })).toBeVisible()
      expect(await shadow(), `${hash}: the bar casts a shadow`).not.toBe('none')
      await inOtherTheme(app, async (scheme) => {
        expect(await shadow(), `${hash}, ${scheme}: the bar casts a shadow`).not.toBe('none')
      })
    }
    // Settings is taller than the window: scrolled to its end, the bar is still at the top.
    await app.evaluate(() => {
      const w = globalThis as unknown as Win
      w.scrollTo(0, w.document.documentElement.scrollHeight)
    })
    await expect.poll(() => app.evaluate(() => (globalThis as unknown as Win).scrollY)).toBeGreaterThan(0)
    expect((await bar.boundingBox())!.y).toBe(0)
  })

  test('lines up with the content when wide: no centred column', async ({ app }) => {
    await openTopLevel(app, 'Projects', '#/projects')
    await atSize(app, WIDE_WINDOW, async () => {
      const edges = await app.evaluate(() => {
        const w = globalThis as unknown as Win
        const padded = (el: El): { left: number; right: number } => {
          const box = el.getBoundingClientRect()
          const style = w.getComputedStyle(el)
          return {
            left: box.left + parseFloat(style.paddingLeft),
            right: box.right - parseFloat(style.paddingRight)
          }
        }
        return { bar: padded(w.document.querySelector('header')), main: padded(w.document.querySelector('main')) }
      })
      expect(edges.main).toEqual(edges.bar)
      expect(edges.main.right - edges.main.left).toBeGreaterThan(WIDE_WINDOW.width - 2 * 32)
    })
  })
})

test.describe('the segmented control', () => {
  test.use({ viewport: DEFAULT_WINDOW })

  test('keeps one width whichever segment is chosen', async ({ app, host }) => {
    await watchedProject(app, host, 'Steady')
    const nav = app.getByRole('navigation', { name: 'Main' })
    const widths = (): Promise<number[]> =>
      nav.evaluate((el) =>
        [el.querySelector('ul')!, ...el.querySelectorAll('a')].map(
          (e) => Math.round(e.getBoundingClientRect().width * 10) / 10
        )
      )
    let first: number[] | null = null
    for (const [name, hash] of TOP_LEVEL) {
      await openTopLevel(app, name, hash)
      const now = await widths()
      first ??= now
      expect(now, `with ${name} chosen`).toEqual(first)
    }
  })
})

/** A screen to check: its name, and how to reach it (resolved once the demo's ids are known). */
type Screen = readonly [name: string, open: (app: Page) => Promise<void>]

const topLevel = (name: string, hash: string): Screen => [name, (app) => openTopLevel(app, name, hash)]
const TOP_LEVEL_SCREENS: readonly Screen[] = TOP_LEVEL.map(([name, hash]) => topLevel(name, hash))

/** One level down (a project, a task, Settings) and an open sheet over a project, in the demo. */
async function levelDownScreens(app: Page): Promise<Screen[]> {
  const projectId = await projectIdByName(app, 'Recipe Box')
  const taskId = (await invoke(app, 'project:tasks', { projectId }))[0]!.id
  const level = (hash: string) => async (page: Page) => {
    await openHash(page, hash)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByTestId('bar-title')).not.toBeEmpty()
  }
  const project = level(`#/projects/${projectId}`)
  return [
    ['Settings', level('#/settings')],
    ['a project', project],
    ['a task', level(`#/projects/${projectId}/tasks/${taskId}`)],
    [
      'an open sheet',
      async (page) => {
        await project(page)
        await page.getByTestId('project-actions').getByRole('button', { name: 'New task' }).click()
        await expect(page.getByRole('dialog')).toBeVisible()
      }
    ]
  ]
}

/** Each screen's findings, so one run names every screen's. */
async function onEachScreen(
  app: Page,
  screens: readonly Screen[],
  find: () => string[]
): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {}
  for (const [name, open] of screens) {
    await open(app)
    found[name] = await app.evaluate(find)
    // A sheet left open would hold the next screen behind it.
    if (await app.getByRole('dialog').isVisible()) {
      await app.keyboard.press('Escape')
      await expect(app.getByRole('dialog')).toHaveCount(0)
    }
  }
  return found
}

const nothingOn = (screens: readonly Screen[]): Record<string, string[]> =>
  Object.fromEntries(screens.map(([name]) => [name, []]))

/** What a screen shows of controls neither 24 nor 28 px tall (run in the page). */
const controlsOffHeight = (): string[] => {
  const w = globalThis as unknown as Win
  // Controls: buttons, fields, the segments and links drawn as buttons. A check box or a
  // switch is a glyph of its own size; a text area grows with its text.
  const controls = w.document.querySelectorAll(
    'button, select, input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"]), nav a, .icon-link, a.button'
  )
  const out: string[] = []
  for (const el of controls) {
    const box = el.getBoundingClientRect()
    const style = w.getComputedStyle(el)
    if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden') continue
    if (el.closest('.sr-only, dialog:not([open])')) continue
    // A row is not a control, even one drawn as a button (a step of the task's timeline).
    if (el.matches('.list-row, [data-step-id]')) continue
    if (Math.abs(box.height - 24) > 0.5 && Math.abs(box.height - 28) > 0.5) {
      out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${box.height} px`)
    }
  }
  return out
}

test.describe('tokens, on every top-level screen', () => {
  test.use({ hostOptions: { demo: true }, viewport: DEFAULT_WINDOW })

  test('every visible control is 24 or 28 px tall, at the top level, one level down and in a sheet', async ({
    app
  }) => {
    // Settings too: it holds the text fields.
    const screens = [...TOP_LEVEL_SCREENS, ...(await levelDownScreens(app))]
    const off = await onEachScreen(app, screens, controlsOffHeight)
    expect(off, 'controls of another height').toEqual(nothingOn(screens))
  })

  test.describe('on the first run', () => {
    test.use({ hostOptions: {} })

    test('the key field and its buttons are 24 or 28 px tall', async ({ app }) => {
      await expect(app.getByRole('heading', { name: 'Welcome to Agent Tray' })).toBeVisible()
      await expect(app.getByRole('textbox').first()).toBeVisible()
      expect(await app.evaluate(controlsOffHeight), 'controls of another height').toEqual([])
    })
  })

  test("every visible text's size is one of the type scale's, at the top level, one level down and in a sheet", async ({
    app
  }) => {
    const scale = await app.evaluate(() => {
      const w = globalThis as unknown as Win
      const root = w.getComputedStyle(w.document.documentElement)
      return ['--text-xs', '--text-sm', '--text-md', '--text-body', '--text-lg'].map((t) =>
        parseFloat(root.getPropertyValue(t))
      )
    })
    const screens = [...TOP_LEVEL_SCREENS, ...(await levelDownScreens(app))]
    const off = await onEachScreen(app, screens, () => {
      const w = globalThis as unknown as Win
      const root = w.getComputedStyle(w.document.documentElement)
      const sizes = ['--text-xs', '--text-sm', '--text-md', '--text-body', '--text-lg'].map((t) =>
        parseFloat(root.getPropertyValue(t))
      )
      const out: string[] = []
      for (const el of w.document.querySelectorAll('body *')) {
        const own = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '')
        if (!own) continue
        const box = el.getBoundingClientRect()
        const style = w.getComputedStyle(el)
        if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden') continue
        if (el.closest('.sr-only, dialog:not([open])')) continue
        if (!sizes.some((s) => Math.abs(s - parseFloat(style.fontSize)) < 0.01)) {
          out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" ${style.fontSize}`)
        }
      }
      return out
    })
    expect(off, `text off the scale (${scale.join(', ')} px)`).toEqual(nothingOn(screens))
    expect(scale.every(Number.isFinite), `the scale's tokens: ${scale.join(', ')}`).toBe(true)
  })
})

test.describe('an account-wide error', () => {
  test.use({ viewport: DEFAULT_WINDOW })

  test('a rejected key: the dot turns red and a banner under the bar on every screen leads to the account', async ({
    app,
    host
  }) => {
    await watchedProject(app, host, 'Locked out')
    const dot = app.getByTestId('health-dot')
    await expect(dot).toHaveCSS('background-color', await tokenColour(app, '--ok'))
    host.service.control.setFaults({ rules: [{ kind: 'error', status: 401 }] })
    await invoke(app, 'monitor:poll-now')
    await expect(dot).toHaveCSS('background-color', await tokenColour(app, '--danger'))
    const banner = app.getByTestId('error-banner')
    for (const [name, hash] of TOP_LEVEL) {
      await openTopLevel(app, name, hash)
      await expect(banner, `on ${name}`).toContainText('The API key was rejected')
      await expect(banner, `on ${name}: what is shown is as of a time`).toContainText(/as of (\d|\w{3} \d)/)
      await expect(app.locator('main'), `on ${name}: what was last seen is dimmed`).toHaveAttribute('data-stale', '')
    }
    // One line, under the bar.
    const [bar, line] = [(await app.locator('.bar').first().boundingBox())!, (await banner.boundingBox())!]
    expect(line.y).toBeGreaterThanOrEqual(bar.y + bar.height)
    expect(line.height).toBeLessThanOrEqual(40)
    const account = (await invoke(app, 'app:get-state')).connections[0]!.id
    await banner.getByRole('button', { name: /^Fix/ }).click()
    await expect(app.locator(`#edit-${account}-key`)).toBeFocused()
    host.service.control.clearFaults()
    await invoke(app, 'monitor:poll-now')
    await openTopLevel(app, 'Now', '#/now')
    await expect(dot).toHaveCSS('background-color', await tokenColour(app, '--ok'))
    await expect(banner).toHaveCount(0)
  })

  test('an unreachable service: the dot is amber while Agent Tray retries, and the banner retries', async ({
    app,
    host
  }) => {
    await watchedProject(app, host, 'Far off')
    host.service.control.setFaults({ rules: [{ kind: 'drop' }] })
    await invoke(app, 'monitor:poll-now')
    const dot = app.getByTestId('health-dot')
    await expect(dot).toHaveCSS('background-color', await tokenColour(app, '--warn'))
    const banner = app.getByTestId('error-banner')
    await expect(banner).toContainText('Offline')
    // Try again asks for a poll now (while the service is still away, so no background poll can end it first).
    const polled = app.waitForRequest((r) => decodeURIComponent(r.url()).endsWith('/__ipc/invoke/monitor:poll-now'))
    await banner.getByRole('button', { name: 'Try again' }).click()
    await polled
    await expect(dot).toHaveCSS('background-color', await tokenColour(app, '--warn'))
    host.service.control.clearFaults()
    await invoke(app, 'monitor:poll-now')
    await expect(banner).toHaveCount(0)
    await expect(dot).toHaveCSS('background-color', await tokenColour(app, '--ok'))
  })
})
