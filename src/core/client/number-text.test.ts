// Numbers sent as strings: the same grammar as before, read in one pass, and nothing past the cap
// read at all, so a response near the 8 MiB cap cannot stall the process that polls.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MAX_RESPONSE_BYTES } from './client'
import { MAX_NUMBER_TEXT, numberFromText } from './number-text'

/** Generous: tsx starting and parsing both bodies take about a second or two here. */
const DEADLINE_MS = 30_000

/** The grammar as the old pattern wrote it: an oracle for short strings only (it is quadratic). */
const ORACLE = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i
function oracle(text: string): number | undefined {
  const t = text.trim()
  if (!ORACLE.test(t)) return undefined
  const n = Number(t)
  return Number.isFinite(n) ? n : undefined
}

describe('numberFromText', () => {
  it('reads what the service writes, and nothing else', () => {
    expect(numberFromText('0.012')).toBe(0.012)
    expect(numberFromText(' 12 ')).toBe(12)
    expect(numberFromText('-.5')).toBe(-0.5)
    expect(numberFromText('5.')).toBe(5)
    expect(numberFromText('1E-6')).toBe(1e-6)
    expect(numberFromText('-2.5e+3')).toBe(-2500)
    for (const bad of [
      '',
      ' ',
      '-',
      '.',
      '-.',
      'e5',
      '1e',
      '1e+',
      '1.2.3',
      '--1',
      '+1',
      '0x10',
      '1_000',
      'Infinity',
      'NaN',
      '1 2',
      '١٢'
    ]) {
      expect(numberFromText(bad), bad).toBeUndefined()
    }
  })

  it('a number too large for a double is not a number (it was Infinity)', () => {
    expect(numberFromText('1e400')).toBeUndefined()
    expect(numberFromText('-1e400')).toBeUndefined()
  })

  it('agrees with the old grammar on every text up to the cap', () => {
    const char = fc.constantFrom(...'0123456789.-+eE x\t'.split(''))
    fc.assert(
      fc.property(
        fc.array(char, { maxLength: 40 }).map((cs) => cs.join('')),
        (text) => {
          expect(numberFromText(text)).toBe(oracle(text))
        }
      ),
      { numRuns: 3000 }
    )
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(numberFromText(String(n))).toBe(Number(String(n)))
      })
    )
  })

  it('reads no character of a text longer than the cap', () => {
    let reads = 0
    const huge = {
      length: DEFAULT_MAX_RESPONSE_BYTES,
      trim: () => ((reads += 1), huge),
      charCodeAt: () => ((reads += 1), 0x31)
    } as unknown as string
    expect(numberFromText(huge)).toBeUndefined()
    expect(reads).toBe(0)
    expect(numberFromText('1'.repeat(MAX_NUMBER_TEXT))).toBe(Number('1'.repeat(MAX_NUMBER_TEXT)))
    expect(numberFromText('1'.repeat(MAX_NUMBER_TEXT + 1))).toBeUndefined()
  })
})

describe('responses near the 8 MiB cap', () => {
  // Backstop: the old pattern took about 18 s on one 80,000-digit total_price; these bodies hold a
  // hundred of those and one of about 8 million digits. Parsed in a child process stopped after a
  // deadline far above what they take now (a stalled parse cannot be interrupted in this thread).
  it(
    'task lists and usage records of very long numeric strings: read in time, prices unknown, records kept or reported',
    { timeout: 60_000 },
    async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('./test-long-numbers.ts', import.meta.url))],
        { stdio: ['ignore', 'pipe', 'pipe'] }
      )
      let out = ''
      let err = ''
      child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s))
      child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s))
      const deadline = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS)
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
      clearTimeout(deadline)
      expect(code, `parsing did not finish within ${DEADLINE_MS / 1000} s ${err}`).toBe(0)
      const result = JSON.parse(out) as Record<string, unknown>
      expect(result.taskBodyBytes).toBeGreaterThan(DEFAULT_MAX_RESPONSE_BYTES - 100_000)
      expect(result.taskBodyBytes).toBeLessThanOrEqual(DEFAULT_MAX_RESPONSE_BYTES)
      expect(result).toMatchObject({ tasks: 101, pricesKnown: 0, usages: 0, issues: 100 })
      expect(result.firstIssue).toMatchObject({
        resource: 'usage',
        path: 'usages[0].final_price',
        message: 'not a number'
      })
    }
  )
})
