// Seeded randomness for the benchmarks: the reference service's own generator, so scripted
// changes and jitter repeat from run to run.
import { mulberry32 } from '../src/reference-service/random'

export const seededRandom = mulberry32

export function intBetween(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1))
}
