// A task's steps in one 32-bit number, so an ended task needs no per-step entry. Persisted in state.json: changing it
// makes every ended task look changed once after an upgrade, so keep it stable.
import { STEP_STATUSES, type StepStatus, type Unknown } from '../../shared/service'

const STEP_CODE: ReadonlyMap<string, number> = new Map(STEP_STATUSES.map((s, i) => [s, i + 1]))

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

/** The fingerprint of no steps; fold each step into it in order (foldStep), as stepsFingerprint does. */
export const FINGERPRINT_START = FNV_OFFSET | 0

/** One more step folded into a fingerprint: for readers that never build the step objects (client/digest.ts). */
export function foldStep(h: number, id: string, status: StepStatus | Unknown | string): number {
  h = Math.imul(h ^ id.length, FNV_PRIME)
  for (let c = 0; c < id.length; c++) h = Math.imul(h ^ id.charCodeAt(c), FNV_PRIME)
  return Math.imul(h ^ (STEP_CODE.get(status) ?? 0), FNV_PRIME) | 0
}

/** FNV-1a over (id length, id, status) in order; the length keeps "ab"+"c" apart from "a"+"bc". Signed 32-bit, so V8
 * stores it as a small integer. */
export function stepsFingerprint(steps: ReadonlyArray<{ id: string; status: StepStatus | Unknown }>): number {
  let h = FINGERPRINT_START
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as { id: string; status: StepStatus | Unknown }
    h = foldStep(h, step.id, step.status)
  }
  return h
}

/** The same fingerprint from a step id → status record (the older, full last seen state). */
export function recordFingerprint(steps: Readonly<Record<string, StepStatus | Unknown>>): number {
  return stepsFingerprint(Object.entries(steps).map(([id, status]) => ({ id, status })))
}
