// No two source files import each other, directly or round a loop, not even for types: a cycle
// says a type or a rule sits in the wrong file (ARCHITECTURE.md, "Layers"). eslint-plugin-import-x's
// no-cycle would need a TypeScript resolver plugin and walks the graph again for every file it
// lints; TypeScript's own import scanner, which the project already has, reads the graph once here.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..')

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) sourceFiles(full, out)
    else if (/\.(ts|svelte)$/.test(entry.name) && !/\.(test|spec)\.ts$/.test(entry.name)) out.push(full)
  }
  return out
}

/** The files each file imports (relative imports only; `import type` and re-exports included). */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files)
  const resolve = (from: string, spec: string): string | undefined => {
    const base = path.resolve(path.dirname(from), spec)
    return [base, `${base}.ts`, `${base}.svelte.ts`, path.join(base, 'index.ts')].find((f) => known.has(f))
  }
  const graph = new Map<string, string[]>()
  for (const file of files) {
    let text = fs.readFileSync(file, 'utf8')
    if (file.endsWith('.svelte'))
      text = [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n')
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
    graph.set(
      file,
      imports.map((spec) => resolve(file, spec)).filter((f): f is string => f !== undefined)
    )
  }
  return graph
}

/** The groups of files that reach each other through imports (Tarjan's strongly connected components). */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const group: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      group.push(w)
    } while (w !== v)
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(group.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return cycles
}

describe('import cycles', () => {
  it('finds a loop through type-only imports, and none in a tree', () => {
    expect(
      importCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']]
        ])
      )
    ).toEqual([['a', 'b', 'c']])
    expect(
      importCycles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []]
        ])
      )
    ).toEqual([])
  })

  it('reads `import type` and re-exports as imports', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-cycles-'))
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b'\nexport type A = B\n")
      fs.writeFileSync(path.join(dir, 'b.ts'), "export type { A } from './a'\nexport type B = number\n")
      const files = ['a.ts', 'b.ts'].map((f) => path.join(dir, f))
      expect(importCycles(importGraph(files))).toEqual([files])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('there are none among the source files', () => {
    const files = ['src', 'e2e', 'bench', 'scripts'].flatMap((d) => sourceFiles(path.join(ROOT, d)))
    const graph = importGraph(files)
    expect(graph.size).toBeGreaterThan(300)
    expect(importCycles(graph).map((group) => group.map((f) => path.relative(ROOT, f)))).toEqual([])
  })
})
