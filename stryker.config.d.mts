// Types of stryker.config.mjs for scripts/mutation.ts.
import type { PartialStrykerOptions } from '@stryker-mutator/api/core'

export interface MutationFolder {
  /** The folder, as keyed in bench/mutation.json. */
  path: string
  mutate: string[]
  tests: string[]
}
export const folders: Record<string, MutationFolder>
declare const config: PartialStrykerOptions
export default config
