// One owner per look in the window's styles: no two rules, in a stylesheet or in any component's
// <style>, declare the same look. Once a look has a name (a global class in a stylesheet, a ui/
// component), the next place that needs it uses the name; a copy drifts from it unseen. Small sets
// (a flex row, a bare list, a heading bar) agree by nature; six or more declarations that agree
// are one look written twice.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'svelte/compiler'
import { describe, expect, it } from 'vitest'

const RENDERER = 'src/renderer'
const A_LOOK = 6

interface Source {
  name: string
  /** A component's source, or a stylesheet wrapped in <style> (svelte's CSS parser reads both). */
  svelte: string
}

interface CssNode {
  type: string
  prelude?: { start: number; end: number }
  block?: { children: CssNode[] }
  property?: string
  value?: string
}

/** Each rule of `source` with at least A_LOOK declarations: where it is, and its declarations in one canonical form. */
function looks(source: Source): { where: string; declarations: string }[] {
  const css = (parse(source.svelte, { modern: true }) as { css: { children: CssNode[] } | null }).css
  const out: { where: string; declarations: string }[] = []
  const visit = (nodes: CssNode[]): void => {
    for (const node of nodes) {
      if (node.type === 'Rule' && node.block && node.prelude) {
        const declarations = node.block.children
          .filter((c) => c.type === 'Declaration')
          .map((d) => `${d.property}: ${d.value!.replace(/\s+/g, ' ').trim()}`)
          .sort()
        if (declarations.length >= A_LOOK)
          out.push({
            where: `${source.name} ${source.svelte.slice(node.prelude.start, node.prelude.end)}`,
            declarations: declarations.join('; ')
          })
      } else if (node.block) visit(node.block.children)
    }
  }
  if (css) visit(css.children)
  return out
}

/** Looks declared in more than one place: each as the places that declare it. */
function repeatedLooks(sources: Source[]): string[][] {
  const places = new Map<string, string[]>()
  for (const look of sources.flatMap(looks))
    places.set(look.declarations, [...(places.get(look.declarations) ?? []), look.where])
  return [...places.values()].filter((where) => where.length > 1)
}

function rendererSources(): Source[] {
  const files = (readdirSync(RENDERER, { recursive: true }) as string[]).sort()
  return [
    ...files
      .filter((f) => f.endsWith('.css'))
      .map((f) => ({ name: f, svelte: `<style>${readFileSync(join(RENDERER, f), 'utf8')}</style>` })),
    ...files
      .filter((f) => f.endsWith('.svelte'))
      .map((f) => ({ name: f, svelte: readFileSync(join(RENDERER, f), 'utf8') }))
  ]
}

describe('the window’s styles', () => {
  it('find a look written twice, whatever its selectors and order', () => {
    const button =
      '.a { display: inline-flex; align-items: center; min-width: 28px; min-height: 28px; border-radius: 6px; color: red; }'
    const sameInAnotherOrder =
      '.b:hover { color: red; border-radius: 6px;  min-width: 28px; min-height:28px; align-items: center; display: inline-flex; }'
    expect(
      repeatedLooks([
        { name: 'app.css', svelte: `<style>${button}</style>` },
        {
          name: 'X.svelte',
          svelte: `<p class="b">x</p><style>@media (min-width: 1px) { ${sameInAnotherOrder} }</style>`
        }
      ])
    ).toEqual([['app.css .a', 'X.svelte .b:hover']])
    // One declaration apart is another look; five alike are too few to be one.
    expect(
      repeatedLooks([
        { name: 'a', svelte: `<style>${button}</style>` },
        {
          name: 'b',
          svelte: `<style>${button.replace('red', 'blue')} .c { display: flex; gap: 1px; margin: 0; padding: 0; color: red; }</style>`
        },
        { name: 'c', svelte: '<style>.d { display: flex; gap: 1px; margin: 0; padding: 0; color: red; }</style>' }
      ])
    ).toEqual([])
  })

  it('declare each look once (the stylesheets and every component)', () => {
    const sources = rendererSources()
    expect(sources.length).toBeGreaterThan(30)
    expect(sources.flatMap(looks).length, 'rules big enough to compare were found').toBeGreaterThan(20)
    expect(repeatedLooks(sources)).toEqual([])
  })
})
