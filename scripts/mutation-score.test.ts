import { describe, expect, it } from 'vitest'
import { mergeFiles, type MutationReport, summarise } from './mutation-score'

const m = (status: string, statusReason?: string) =>
  statusReason === undefined ? { status } : { status, statusReason }

const report: MutationReport = {
  files: {
    'src/core/x/b.ts': { mutants: [m('Killed'), m('Survived'), m('NoCoverage'), m('Ignored', 'equivalent, as above')] },
    'src/core/x/a.ts': {
      mutants: [
        m('Killed'),
        m('Timeout'),
        m('Ignored', 'Static mutant (and "ignoreStatic" was enabled)'),
        m('CompileError')
      ]
    }
  }
}

describe("a folder's mutation score", () => {
  it('counts as Stryker does, with the named equivalents and the static mutants on neither side', () => {
    const s = summarise(report, 'src/core/x')
    expect(s).toMatchObject({
      mutants: 8,
      killed: 2,
      timeout: 1,
      survived: 1,
      noCoverage: 1,
      equivalent: 1,
      static: 1,
      errors: 1
    })
    // 3 detected of 5 valid; 3 of the 4 a test reached.
    expect(s.score).toBe(60)
    expect(s.scoreOfCovered).toBe(75)
  })

  it('gives each file its own counts and score, counted alike, files in order of their names', () => {
    const s = summarise(report, 'src/core/x')
    expect(Object.keys(s.perFile)).toEqual(['a.ts', 'b.ts'])
    expect(s.perFile['a.ts']).toEqual({
      mutants: 4,
      killed: 1,
      timeout: 1,
      survived: 0,
      noCoverage: 0,
      equivalent: 0,
      static: 1,
      errors: 1,
      score: 100,
      scoreOfCovered: 100
    })
    expect(s.perFile['b.ts']).toEqual({
      mutants: 4,
      killed: 1,
      timeout: 0,
      survived: 1,
      noCoverage: 1,
      equivalent: 1,
      static: 0,
      errors: 0,
      score: 33.33,
      scoreOfCovered: 50
    })
    // Windows paths name the same files.
    const windows = summarise({ files: { 'src\\core\\x\\a.ts': report.files['src/core/x/a.ts']! } }, 'src/core/x')
    expect(Object.keys(windows.perFile)).toEqual(['a.ts'])
  })

  it('a run narrowed to some files replaces their scores only, and the totals are added up again from every file', () => {
    const whole = summarise(report, 'src/core/x')
    const narrowed = summarise(
      {
        files: {
          'src/core/x/b.ts': { mutants: [m('Killed'), m('Killed'), m('Killed'), m('Survived')] },
          'src/core/x/c.ts': { mutants: [m('Killed')] }
        }
      },
      'src/core/x'
    )
    const merged = mergeFiles(whole, narrowed)
    expect(Object.keys(merged.perFile)).toEqual(['a.ts', 'b.ts', 'c.ts'])
    expect(merged.perFile['a.ts']).toEqual(whole.perFile['a.ts'])
    expect(merged.perFile['b.ts']).toEqual(narrowed.perFile['b.ts'])
    expect(merged).toMatchObject({
      mutants: 9,
      killed: 5,
      timeout: 1,
      survived: 1,
      noCoverage: 0,
      equivalent: 0,
      static: 1,
      errors: 1
    })
    // 6 detected of 7 valid.
    expect(merged.score).toBe(85.71)
    expect(merged.scoreOfCovered).toBe(85.71)
  })
})
