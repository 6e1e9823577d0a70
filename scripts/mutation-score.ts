// The score of a Stryker JSON report (mutation-testing-report-schema), as Stryker itself counts it:
// detected (killed, timed out) over valid mutants (detected, survived, not covered). Mutants
// disabled with a `// Stryker disable` comment (the named equivalents, bench/mutation/equivalent.md)
// are counted apart as "equivalent", and static mutants left out by --ignoreStatic as "static";
// neither is on either side.

export interface MutationReport {
  files: Record<string, { mutants: Array<{ status: string; statusReason?: string }> }>
}

export interface FolderScore {
  mutants: number
  killed: number
  timeout: number
  survived: number
  noCoverage: number
  /** Disabled in the source with the reason (`// Stryker disable next-line …: reason`). */
  equivalent: number
  /** Run once at module load, so each needs the whole suite; left out with --ignoreStatic. */
  static: number
  errors: number
  /** Percent, two decimals; detected over valid. */
  score: number
  /** Percent, two decimals; detected over detected and survived (the mutants some test reached). */
  scoreOfCovered: number
  perFile: Record<string, number>
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.round((part / whole) * 10_000) / 100
}

type Mutant = MutationReport['files'][string]['mutants'][number]

const isStatic = (m: Mutant): boolean => m.status === 'Ignored' && /static/i.test(m.statusReason ?? '')

function count(mutants: Mutant[]): Omit<FolderScore, 'score' | 'scoreOfCovered' | 'perFile'> {
  const of = (s: string): number => mutants.filter((m) => m.status === s).length
  const statics = mutants.filter(isStatic).length
  return {
    mutants: mutants.length,
    killed: of('Killed'),
    timeout: of('Timeout'),
    survived: of('Survived'),
    noCoverage: of('NoCoverage'),
    equivalent: of('Ignored') - statics,
    static: statics,
    errors: of('CompileError') + of('RuntimeError')
  }
}

function scores(c: ReturnType<typeof count>): { score: number; scoreOfCovered: number } {
  const detected = c.killed + c.timeout
  return {
    score: percent(detected, detected + c.survived + c.noCoverage),
    scoreOfCovered: percent(detected, detected + c.survived)
  }
}

/** The folder's totals and each file's score, files named relative to `folder`. */
export function summarise(report: MutationReport, folder: string): FolderScore {
  const all: Mutant[] = []
  const perFile: Record<string, number> = {}
  for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    all.push(...mutants)
    const rel = file.replaceAll('\\', '/').replace(`${folder}/`, '')
    perFile[rel] = scores(count(mutants)).score
  }
  const totals = count(all)
  return { ...totals, ...scores(totals), perFile }
}
