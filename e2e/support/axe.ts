// axe-core in the page, run as axe's own docs run it (axe.run): injected once per page load and
// asked for violations only. @axe-core/playwright injected the 650 kB source twice per run and,
// by default, merged the results in a blank page it opened each time (3-10 times slower here);
// the window has no frames of its own, so there is nothing for that merge to do.
import type { Page } from '@playwright/test'
import axe from 'axe-core'

export type Violation = Pick<axe.Result, 'id' | 'impact'> & { nodes: { target: string[] }[] }

/** The violations axe finds on what the page shows now: every rule axe runs by default, or `rules` only. */
export async function axeViolations(page: Page, rules?: readonly string[]): Promise<Violation[]> {
  const present = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object')
  if (!present) await page.evaluate(axe.source)
  const options: axe.RunOptions = {
    resultTypes: ['violations'],
    ...(rules ? { runOnly: { type: 'rule', values: [...rules] } } : {})
  }
  return page.evaluate(async (runOptions) => {
    const { axe: injected, document } = globalThis as unknown as { axe: typeof axe; document: axe.ElementContext }
    const results = await injected.run(document, runOptions)
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String) }))
    }))
  }, options)
}
