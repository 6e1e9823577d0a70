// The layering rules of eslint.config.js (ARCHITECTURE.md, "Layers"), checked on snippets placed in each layer:
// a bare directory import ('../core') is caught as surely as a deep one, and a file inside a
// layer that shares a layer's name (src/shared/service.ts, src/cli/main.ts) is not.
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint()

async function restricted(file: string, source: string): Promise<boolean> {
  const [result] = await eslint.lintText(`import '${source}'\n`, { filePath: file })
  return (result?.messages ?? []).some((m) => m.ruleId === 'no-restricted-imports')
}

const cases: [file: string, source: string, forbidden: boolean][] = [
  // src/main: everything but the preload, the renderer and the command.
  ['src/main/x.ts', '../renderer', true],
  ['src/main/x.ts', '../renderer/lib/format', true],
  ['src/main/x.ts', '../preload', true],
  ['src/main/x.ts', '../cli/program', true],
  ['src/main/sub/x.ts', '../../cli', true],
  ['src/main/x.ts', '../core/settings', false],
  ['src/main/x.ts', '../reference-service', false],
  // src/core: never the reference service, except in its tests.
  ['src/core/settings/x.ts', '../../reference-service', true],
  ['src/core/settings/x.ts', '../../reference-service/index', true],
  ['src/core/x.ts', '../main', true],
  ['src/core/settings/x.test.ts', '../../reference-service', false],
  ['src/core/settings/x.test.ts', '../../main', true],
  // Bare directory imports in the other layers.
  ['src/renderer/lib/x.ts', '../../core', true],
  ['src/shared/x.ts', '../core', true],
  ['src/cli/x.ts', '../main', true],
  ['src/reference-service/x.ts', '../core', true],
  ['src/preload/x.ts', '../core', true],
  // Files inside a layer named like a layer are not the layer.
  ['src/shared/x.ts', './service', false],
  ['src/cli/commands/x.ts', '../main', false],
  ['src/cli/x.ts', '../core/settings', false]
]

describe('eslint layer rules', () => {
  it.each(cases)('%s importing %s: forbidden %s', async (file, source, forbidden) => {
    expect(await restricted(file, source)).toBe(forbidden)
  })
})
