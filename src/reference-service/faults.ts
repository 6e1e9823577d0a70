// The fault plan: which injected faults apply to a request. Scoped by method and path prefix,
// limited to the next N matching requests and/or a seeded share of them.
import type { Random } from './random'
import type { FaultPlan, FaultRule } from './types'

export type DecisiveFault = Exclude<FaultRule, { kind: 'latency' } | { kind: 'hold' }>

export interface FaultDecision {
  latencyMs: number
  /** Wait until the control surface releases held requests. */
  hold: boolean
  fault?: DecisiveFault
}

const KINDS = new Set([
  'latency',
  'hold',
  'error',
  'rate_limit',
  'malformed',
  'truncated',
  'drop',
  'slow',
  'corrupt_record'
])

/** Checks a plan from outside (the control route); returns a reason or undefined. */
export function faultPlanProblem(plan: unknown): string | undefined {
  if (typeof plan !== 'object' || plan === null || !Array.isArray((plan as FaultPlan).rules))
    return 'a fault plan is {"rules": [...]}'
  for (const [i, rule] of (plan as FaultPlan).rules.entries()) {
    if (typeof rule !== 'object' || rule === null || !KINDS.has((rule as FaultRule).kind)) {
      return `rules[${i}].kind must be one of ${[...KINDS].join(', ')}`
    }
    if (rule.kind === 'latency' && !(typeof rule.ms === 'number' && rule.ms >= 0))
      return `rules[${i}].ms must be a number of ms`
    if (
      rule.kind === 'corrupt_record' &&
      rule.index !== undefined &&
      !(Number.isInteger(rule.index) && rule.index >= 0)
    ) {
      return `rules[${i}].index must be a whole number`
    }
    if (rule.kind === 'corrupt_record' && rule.all !== undefined && typeof rule.all !== 'boolean')
      return `rules[${i}].all must be true or false`
    if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 0))
      return `rules[${i}].times must be a whole number`
    if (
      rule.probability !== undefined &&
      !(typeof rule.probability === 'number' && rule.probability >= 0 && rule.probability <= 1)
    ) {
      return `rules[${i}].probability must be between 0 and 1`
    }
  }
  return undefined
}

export class Faults {
  private rules: { rule: FaultRule; left: number }[] = []
  /** Held requests, each waiting for release(). */
  private readonly waiting = new Set<() => void>()

  constructor(private readonly random: Random) {}

  set(plan: FaultPlan): void {
    this.rules = plan.rules.map((rule) => ({ rule: { ...rule }, left: rule.times ?? Infinity }))
  }

  clear(): void {
    this.rules = []
  }

  /** Resolves once release() is called: a gate a test opens when it has seen what a slow answer shows. */
  held(): Promise<void> {
    return new Promise((resolve) => {
      const go = () => {
        this.waiting.delete(go)
        resolve()
      }
      this.waiting.add(go)
    })
  }

  /** How many requests are held now. */
  heldCount(): number {
    return this.waiting.size
  }

  /** Lets every held request go on; returns how many there were. Rules stay (later requests are held again). */
  release(): number {
    const all = [...this.waiting]
    for (const go of all) go()
    return all.length
  }

  decide(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, hold: false }
    for (const entry of this.rules) {
      const { rule } = entry
      if (entry.left <= 0) continue
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue
      if (rule.pathPrefix !== undefined && !path.startsWith(rule.pathPrefix)) continue
      const decisive = rule.kind !== 'latency' && rule.kind !== 'hold'
      if (decisive && decision.fault) continue
      if (rule.probability !== undefined && this.random() >= rule.probability) continue
      entry.left -= 1
      if (rule.kind === 'latency') decision.latencyMs += rule.ms
      else if (rule.kind === 'hold') decision.hold = true
      else decision.fault = rule
    }
    this.rules = this.rules.filter((e) => e.left > 0)
    return decision
  }
}

/** A JSON body with the id of the record at `index` (or of all) set to null; anything else is returned as it was. */
export function corruptRecord(body: string, index: number | 'all'): string {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return body
  }
  const list = Array.isArray(value) ? value : (value as { steps?: unknown } | null)?.steps
  const records: unknown[] = !Array.isArray(list) ? [] : index === 'all' ? list : [list[index]]
  const broken = records.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null)
  if (broken.length === 0) return body
  for (const record of broken) record.id = null
  return JSON.stringify(value)
}
