// The score of a Stryker JSON report (mutation-testing-report-schema), as Stryker itself counts it:
// detected (killed, timed out) over valid mutants (detected, survived, not covered). Mutants
// disabled with a `// Stryker disable` comment (the named equivalents, bench/mutation/equivalent.md)
// are counted apart as "equivalent", and static mutants left out by --ignoreStatic as "static";
// neither is on either side. A folder's score and each of its files' are counted alike.

export interface MutationReport {
  files: Record<string, { mutants: Array<{ status: string; statusReason?: string }> }>
}

export interface Score {
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
}

export interface FolderScore extends Score {
  /** Each file's own counts and score, by its name relative to the folder. */
  perFile: Record<string, Score>
}

type Counts = Omit<Score, 'score' | 'scoreOfCovered'>

const COUNTS = ['mutants', 'killed', 'timeout', 'survived', 'noCoverage', 'equivalent', 'static', 'errors'] as const

function percent(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.round((part / whole) * 10_000) / 100
}

type Mutant = MutationReport['files'][string]['mutants'][number]

const isStatic = (m: Mutant): boolean => m.status === 'Ignored' && /static/i.test(m.statusReason ?? '')

function count(mutants: Mutant[]): Counts {
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

function scored(c: Counts): Score {
  const detected = c.killed + c.timeout
  return {
    ...c,
    score: percent(detected, detected + c.survived + c.noCoverage),
    scoreOfCovered: percent(detected, detected + c.survived)
  }
}

/** The files' counts added up, and scored as one. */
function total(files: Score[]): Score {
  const sum = Object.fromEntries(COUNTS.map((k) => [k, files.reduce((n, f) => n + f[k], 0)])) as Counts
  return scored(sum)
}

function sortedFiles(perFile: Record<string, Score>): Record<string, Score> {
  return Object.fromEntries(Object.entries(perFile).sort(([a], [b]) => a.localeCompare(b)))
}

/** The folder's totals and each file's counts and score, files named relative to `folder`. */
export function summarise(report: MutationReport, folder: string): FolderScore {
  const perFile: Record<string, Score> = {}
  for (const [file, { mutants }] of Object.entries(report.files)) {
    perFile[file.replaceAll('\\', '/').replace(`${folder}/`, '')] = scored(count(mutants))
  }
  const files = sortedFiles(perFile)
  return { ...total(Object.values(files)), perFile: files }
}

/**
 * A run narrowed to some of a folder's files (`--mutate`) over the folder's last whole score: those
 * files' entries replaced, the others kept, and the folder's totals added up again from its files.
 */
export function mergeFiles(previous: FolderScore, narrowed: FolderScore): FolderScore {
  const files = sortedFiles({ ...previous.perFile, ...narrowed.perFile })
  return { ...total(Object.values(files)), perFile: files }
}
