// Numbers sent as strings, read in one pass over at most MAX_NUMBER_TEXT characters: a pattern with nested repetition
// took quadratic time on a long run of digits, and polling runs in the main process.

/** The longest text read as a number; anything longer is not one (no price or count needs 100 characters). */
export const MAX_NUMBER_TEXT = 100

const ZERO = 0x30
const NINE = 0x39
const MINUS = 0x2d
const PLUS = 0x2b
const DOT = 0x2e
const LOWER_E = 0x65
const UPPER_E = 0x45

/** Index of the first character at or after `i` that is not a decimal digit. */
function skipDigits(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c < ZERO || c > NINE) break
    i++
  }
  return i
}

/** The finite number a string spells (sign, digits, optional point and exponent, whitespace around), or undefined. */
export function numberFromText(raw: string): number | undefined {
  if (raw.length > MAX_NUMBER_TEXT) return undefined
  const text = raw.trim()
  let i = text.charCodeAt(0) === MINUS ? 1 : 0
  const wholeEnd = skipDigits(text, i)
  // Stryker disable next-line ArithmeticOperator: equivalent, a wrong count only lets through a text with a minus and no digit, which Number() refuses below
  let digits = wholeEnd - i
  i = wholeEnd
  if (text.charCodeAt(i) === DOT) {
    const fractionEnd = skipDigits(text, i + 1)
    // Stryker disable next-line ArithmeticOperator: equivalent, a wrong count only lets through a lone '.' (or '-.'), which Number() refuses below
    digits += fractionEnd - (i + 1)
    i = fractionEnd
  }
  if (digits === 0) return undefined
  const e = text.charCodeAt(i)
  if (e === LOWER_E || e === UPPER_E) {
    i++
    const sign = text.charCodeAt(i)
    if (sign === PLUS || sign === MINUS) i++
    const exponentEnd = skipDigits(text, i)
    if (exponentEnd === i) return undefined
    i = exponentEnd
  }
  if (i !== text.length) return undefined
  const value = Number(text)
  return Number.isFinite(value) ? value : undefined
}
