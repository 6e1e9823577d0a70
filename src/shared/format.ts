// Shared by the window and the command so both print the same; locale-independent so tests and screenshots do not
// depend on the machine.

/** A figure that can be shown: not absent, NaN or infinite (Number.isFinite is false for null and undefined). */
function shown(value: number | null | undefined): value is number {
  return Number.isFinite(value)
}

/** USD: cents from a dollar up; below, up to the service's 6 decimals, so a cheap call still shows. */
export function formatUsd(value: number | null | undefined): string {
  if (!shown(value)) return '–'
  const sign = value < 0 ? '-' : ''
  const abs = Math.abs(value)
  if (abs === 0) return '$0.00'
  // A dollar or more once rounded to cents ($0.996 is $1.00).
  if (Math.round(abs * 100) / 100 >= 1) {
    return `${sign}$${group(abs.toFixed(2))}`
  }
  let text = abs.toFixed(6)
  // A non-zero amount too small for the service's 6 decimals must not read as nothing.
  if (Number(text) === 0) return `${sign}<$0.000001`
  // Trim trailing zeros, but keep at least cents.
  while (text.endsWith('0') && text.length > '0.00'.length) text = text.slice(0, -1)
  return `${sign}$${text}`
}

/** Decimals one column needs so every amount in it has the same precision, decided by its smallest non-zero amount. */
export function usdColumnDecimals(values: readonly (number | null | undefined)[]): 2 | 4 | 6 {
  let smallest = Number.POSITIVE_INFINITY
  for (const v of values) {
    if (!shown(v) || v === 0) continue
    smallest = Math.min(smallest, Math.abs(v))
  }
  // No amount at all (smallest still infinite) is cents too.
  if (smallest >= 1) return 2
  return smallest >= 0.0001 ? 4 : 6
}

/** USD with exactly `decimals` decimals ("$0.3824", "$1.5900", "$1,234.50"), for aligned figures. */
export function formatUsdFixed(value: number | null | undefined, decimals: number): string {
  if (!shown(value)) return '–'
  const places = Math.min(6, Math.max(0, Math.trunc(decimals)))
  const abs = Math.abs(value)
  const text = abs.toFixed(places)
  // A non-zero amount too small for this precision must not read as nothing.
  if (abs > 0 && Number(text) === 0) {
    return `${value < 0 ? '-' : ''}<$${places === 0 ? '1' : `0.${'0'.repeat(places - 1)}1`}`
  }
  // Here the text is 0 only for 0 itself (and -0, which is not below 0).
  const sign = value < 0 ? '-' : ''
  return `${sign}$${group(text)}`
}

/** The service rounds every price to 6 decimals: a usage record shown as it was billed. */
export const SERVICE_PRICE_DECIMALS = 6

/** A money cell where nothing is nothing: zero or absent is a dash, never a column of $0.0000. */
export function formatUsdCell(value: number | null | undefined, decimals: number): string {
  if (!shown(value) || value === 0) return '–'
  return formatUsdFixed(value, decimals)
}

/** Each amount of one column in that column's one precision (see usdColumnDecimals). */
export function formatUsdColumn(values: readonly (number | null | undefined)[]): string[] {
  const decimals = usdColumnDecimals(values)
  return values.map((v) => formatUsdFixed(v, decimals))
}

function group(fixed: string): string {
  // A split gives at least one part.
  const [whole, decimals] = fixed.split('.') as [string, string?]
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return decimals === undefined ? grouped : `${grouped}.${decimals}`
}

/** Token counts: 950, 12.3k, 4.5M. null (absent) is shown as a dash, not as 0. */
export function formatTokens(value: number | null | undefined): string {
  if (!shown(value)) return '–'
  const sign = value < 0 ? '-' : ''
  const abs = Math.abs(value)
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k']
  ]
  for (let i = 0; i < units.length; i++) {
    const [size, suffix] = units[i]!
    if (abs >= size) {
      const scaled = Math.round((abs / size) * 10) / 10
      // 999,960 rounds to "1000.0k": say "1M" instead.
      if (scaled >= 1000 && i > 0) {
        const [bigger, biggerSuffix] = units[i - 1]!
        return `${sign}${trimZero(Math.round((abs / bigger) * 10) / 10)}${biggerSuffix}`
      }
      return `${sign}${trimZero(scaled)}${suffix}`
    }
  }
  // Under a thousand: the count itself.
  return `${sign}${Math.round(abs)}`
}

function trimZero(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1)
}

/** A span of time: 850ms, 42s, 3m 05s, 1h 02m, 2d 3h. */
export function formatDuration(ms: number | null | undefined): string {
  if (!shown(ms) || ms < 0) return '–'
  if (ms < 1000) return `${Math.round(ms)}ms`
  const totalSeconds = Math.floor(ms / 1000)
  if (totalSeconds < 60) return `${totalSeconds}s`
  const totalMinutes = Math.floor(totalSeconds / 60)
  if (totalMinutes < 60) return `${totalMinutes}m ${pad(totalSeconds % 60)}s`
  const totalHours = Math.floor(totalMinutes / 60)
  if (totalHours < 24) return `${totalHours}h ${pad(totalMinutes % 60)}m`
  return `${Math.floor(totalHours / 24)}d ${totalHours % 24}h`
}

/** Under this, a moment ago (or an elapsed time) reads "just now": the one threshold of both. */
export const JUST_NOW_MS = 10_000

/** How long something has run: "just now" at first (not "0ms"), then as formatDuration. */
export function formatElapsed(ms: number | null | undefined): string {
  if (!shown(ms)) return '–'
  return ms < JUST_NOW_MS ? 'just now' : formatDuration(ms)
}

/** How long something ran, in words for a sentence: "45 s", "4 min", "1 h 5 min", "2 d 3 h". */
export function formatRunTime(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < 0) return null
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.round(ms / 60_000)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`
  const days = Math.floor(hours / 24)
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/** "5 min ago", "in 2 h", past a week the UTC date; a dash rather than "NaN" for invalid input. */
export function formatRelativeTime(then: Date | string | number, now: Date | number): string {
  const t = new Date(then).getTime()
  const n = new Date(now).getTime()
  if (!Number.isFinite(t) || !Number.isFinite(n)) return '–'
  const diff = n - t
  const abs = Math.abs(diff)
  const wrap = (s: string): string => (diff >= 0 ? `${s} ago` : `in ${s}`)
  // A server clock a little ahead of ours is skew, not the future.
  if (abs < JUST_NOW_MS || (diff < 0 && abs < 60_000)) return 'just now'
  if (abs < 60_000) return wrap(`${Math.floor(abs / 1000)}s`)
  if (abs < 3_600_000) return wrap(`${Math.floor(abs / 60_000)} min`)
  if (abs < 86_400_000) return wrap(`${Math.floor(abs / 3_600_000)} h`)
  if (abs < 7 * 86_400_000) return wrap(`${Math.floor(abs / 86_400_000)} d`)
  return new Date(t).toISOString().slice(0, 10)
}

/** Money in summaries and lists: always cents, "<$0.01" so a non-zero amount never reads as nothing. */
export function formatMoney(value: number | null | undefined): string {
  return formatUsdFixed(value, 2)
}

/** Per time zone; undefined is local time. */
const dateFormats = new Map<string | undefined, Intl.DateTimeFormat>()
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const

/** The window's one date form: the time of day when it is today, the year only when it is another one. */
export function formatDate(iso: string | null | undefined, now: Date | number, timeZone?: string): string {
  if (!iso) return '–'
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return iso
  let format = dateFormats.get(timeZone)
  if (format === undefined) {
    // Made once per zone: a formatter costs far more to build than to use, and lists format many dates.
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23'
    })
    dateFormats.set(timeZone, format)
  }
  const parts = (at: number): Record<string, string> =>
    Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]))
  const then = parts(t)
  const today = parts(new Date(now).getTime())
  if (then.year === today.year && then.month === today.month && then.day === today.day)
    return `${then.hour}:${then.minute}`
  const day = `${MONTHS[Number(then.month) - 1]} ${then.day}`
  return then.year === today.year ? day : `${day}, ${then.year}`
}

/** A local calendar day in the one date form, without a time of day; the raw text when it is not such a day. */
export function formatDay(day: string, today: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined
  if (!m || month === undefined) return day
  const text = `${month} ${Number(m[3])}`
  return m[1] === today.slice(0, 4) ? text : `${text}, ${m[1]}`
}

/** A calendar month ("YYYY-MM"): "Nov", "Nov 2025" in another year than `today`'s. */
export function formatMonth(month: string, today: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month)
  const name = m ? MONTHS[Number(m[2]) - 1] : undefined
  if (!m || name === undefined) return month
  return m[1] === today.slice(0, 4) ? name : `${name} ${m[1]}`
}
