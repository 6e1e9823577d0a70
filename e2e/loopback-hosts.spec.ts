// DNS rebinding, as a browser does it: Chromium resolves a page's own name to 127.0.0.1
// (--host-resolver-rules), so the loopback servers look same-origin to it, but the browser sends
// that name as Host. The test host and the reference service answer 421 and give nothing away.
// And the reference service's prebuilt page runs nothing, whatever gets into it.
import { chromium } from '@playwright/test'
import { chromiumLaunchOptions } from './support/browser'
import { expect, test } from './support/fixtures'

const REBOUND = 'rebind.agent-tray.test'

test('a page that reaches the loopback servers by a rebound name gets 421 from both', async ({ host }) => {
  const launch = chromiumLaunchOptions()
  const browser = await chromium.launch({
    ...launch,
    args: [...(launch.args ?? []), `--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`]
  })
  try {
    const page = await browser.newPage()
    const project = host.service.control.createProject({ name: 'Secret project' })
    const hostPort = new URL(host.url).port
    const servicePort = new URL(host.service.url).port
    for (const url of [
      `http://${REBOUND}:${hostPort}/`,
      `http://${REBOUND}:${hostPort}/__ipc/events`,
      `http://${REBOUND}:${hostPort}/__bridge.js`,
      `http://${REBOUND}:${servicePort}/prebuilt/${project.id}`
    ]) {
      const res = await page.goto(url)
      expect(res?.status(), url).toBe(421)
      expect(await page.content(), url).not.toContain('Secret project')
    }
    // The same pages by the servers' own address are served.
    expect((await page.goto(host.url))?.status()).toBe(200)
    expect((await page.goto(`${host.service.url}/prebuilt/${project.id}`))?.status()).toBe(200)
  } finally {
    await browser.close()
  }
})

test('the prebuilt page runs no script, even one that got into it', async ({ host, page }) => {
  const project = host.service.control.createProject({ name: 'Shop' })
  await page.goto(`${host.service.url}/prebuilt/${project.id}`)
  await expect(page.locator('h1')).toHaveText('Shop')
  const outcome = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; blocked: string | null }>((resolve) => {
        // Typed by hand: the e2e code is compiled without the DOM library.
        type Doc = {
          addEventListener(type: string, listener: (e: { violatedDirective: string }) => void): void
          createElement(tag: string): { textContent: string }
          body: { appendChild(node: unknown): void }
        }
        const w = globalThis as unknown as { __ran?: boolean; document: Doc }
        // The barrier is the violation report itself: an inline script that may run does so as it
        // is appended, before the report comes; with no policy there is no report and the test fails.
        w.document.addEventListener('securitypolicyviolation', (e) =>
          resolve({ ran: w.__ran === true, blocked: e.violatedDirective })
        )
        const script = w.document.createElement('script')
        script.textContent = 'window.__ran = true'
        w.document.body.appendChild(script)
      })
  )
  expect(outcome).toEqual({ ran: false, blocked: 'script-src-elem' })
})
