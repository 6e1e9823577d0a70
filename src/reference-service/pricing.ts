// Per-model rates of the simulated providers (USD per million tokens) and the service's price
// arithmetic: input tokens are charged in full, cache reads on top, final price rounded to 6 decimals.

export type ResponseStyle = 'openai' | 'anthropic' | 'google'

export interface ModelRate {
  provider: string
  model: string
  /** The versioned name a provider reports back. */
  modelName: string
  style: ResponseStyle
  input: number
  cacheRead: number
  output: number
  /** Whether the model reports reasoning tokens. */
  reasons: boolean
}

export const MODELS: readonly ModelRate[] = [
  {
    provider: 'openai',
    model: 'gpt-4.1',
    modelName: 'gpt-4.1-2025-04-14',
    style: 'openai',
    input: 2,
    cacheRead: 0.5,
    output: 8,
    reasons: false
  },
  {
    provider: 'openai',
    model: 'gpt-4.1-mini',
    modelName: 'gpt-4.1-mini-2025-04-14',
    style: 'openai',
    input: 0.4,
    cacheRead: 0.1,
    output: 1.6,
    reasons: false
  },
  {
    provider: 'openai',
    model: 'o4-mini',
    modelName: 'o4-mini-2025-04-16',
    style: 'openai',
    input: 1.1,
    cacheRead: 0.275,
    output: 4.4,
    reasons: true
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4',
    modelName: 'claude-sonnet-4-20250514',
    style: 'anthropic',
    input: 3,
    cacheRead: 0.3,
    output: 15,
    reasons: false
  },
  {
    provider: 'google',
    model: 'gemini-2.5-flash',
    modelName: 'gemini-2.5-flash',
    style: 'google',
    input: 0.3,
    cacheRead: 0.075,
    output: 2.5,
    reasons: true
  }
]

export function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals
  return Math.round((value + Number.EPSILON) * f) / f
}

export const round6 = (value: number): number => roundTo(value, 6)

export interface Price {
  input_price: number
  output_price: number
  cache_read_price: number
  total_price: number
}

export function priceFor(
  rate: ModelRate,
  tokens: { input: number; cacheRead: number; output: number }
): { price: Price; final: number } {
  const input_price = roundTo((tokens.input * rate.input) / 1e6, 9)
  const cache_read_price = roundTo((tokens.cacheRead * rate.cacheRead) / 1e6, 9)
  const output_price = roundTo((tokens.output * rate.output) / 1e6, 9)
  const total_price = roundTo(input_price + cache_read_price + output_price, 9)
  return { price: { input_price, output_price, cache_read_price, total_price }, final: round6(total_price) }
}

/** A task's total: the sum of its records' final prices, rounded like them. */
export function sumPrices(finals: Iterable<number>): number {
  let sum = 0
  for (const f of finals) sum += f
  return round6(sum)
}
