import { describe, expect, it } from 'vitest'
import { summarise, type MutationReport } from './mutation-score'

const m = (status: string, statusReason?: string) => (statusReason === undefined ? { status } : { status, statusReason })

describe("a folder's mutation score", () => {
  it("counts as Stryker does, with the named equivalents and the static mutants on neither side", () => {
    const report: MutationReport = {
      files: {
        'src/core/x/b.ts': { mutants: [m('Killed'), m('Survived'), m('NoCoverage'), m('Ignored', 'equivalent, as above')] },
        'src/core/x/a.ts': { mutants: [m('Killed'), m('Timeout'), m('Ignored', 'Static mutant (and "ignoreStatic" was enabled)'), m('CompileError')] }
      }
    }
    const s = summarise(report, 'src/core/x')
    expect(s).toMatchObject({ mutants: 8, killed: 2, timeout: 1, survived: 1, noCoverage: 1, equivalent: 1, static: 1, errors: 1 })
    // 3 detected of 5 valid; 3 of the 4 a test reached.
    expect(s.score).toBe(60)
    expect(s.scoreOfCovered).toBe(75)
    expect(s.perFile).toEqual({ 'a.ts': 100, 'b.ts': 33.33 })
    expect(Object.keys(s.perFile)).toEqual(['a.ts', 'b.ts'])
  })
})
