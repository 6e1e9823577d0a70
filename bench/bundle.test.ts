// The measured children run bundled: each worker entry becomes one file that plain Node loads
// (no tsx), taking its packages from node_modules and holding nothing of the bench's parent side.
import { execFileSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import pkg from '../package.json' with { type: 'json' }
import { bundledWorker } from './bundle'
import { REPO_ROOT } from './service-process'

const WORKERS = ['scale-worker', 'idle-worker', 'soak-worker']

/** The modules a bundle imports: static `import … from "x"` and dynamic `import("x")`. */
function importsOf(code: string): string[] {
  const found = new Set<string>()
  for (const m of code.matchAll(/^import\s[^'"]*?from\s*["']([^"']+)["']/gm)) found.add(m[1] as string)
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.add(m[1] as string)
  return [...found]
}

describe('bundledWorker', () => {
  for (const name of WORKERS) {
    it(`${name}: one file in out/bench that imports only Node's modules and the app's dependencies`, () => {
      const file = bundledWorker(path.join(REPO_ROOT, `bench/${name}.ts`))
      expect(path.relative(REPO_ROOT, file)).toBe(path.join('out', 'bench', `${name}.mjs`))
      const allowed = new Set([
        ...builtinModules,
        ...builtinModules.map((m) => `node:${m}`),
        ...Object.keys(pkg.dependencies)
      ])
      const imports = importsOf(readFileSync(file, 'utf8'))
      expect(imports.length).toBeGreaterThan(0)
      // Neither the bundler nor tsx nor a source file left to compile at run time.
      expect(imports.filter((m) => !allowed.has(m))).toEqual([])
    })

    it(`${name}: loads under plain Node, without tsx`, () => {
      const file = bundledWorker(path.join(REPO_ROOT, `bench/${name}.ts`))
      // Without an IPC channel the worker waits for no input: it loads every module and exits.
      const env = { ...process.env, NODE_OPTIONS: '' }
      expect(() => execFileSync(process.execPath, [file], { cwd: REPO_ROOT, env, stdio: 'pipe' })).not.toThrow()
    })
  }

  it('bundles an entry once per process: a second call does not write the file again', () => {
    const entry = path.join(REPO_ROOT, 'bench/idle-worker.ts')
    const written = statSync(bundledWorker(entry)).mtimeMs
    expect(statSync(bundledWorker(entry)).mtimeMs).toBe(written)
  })
})
