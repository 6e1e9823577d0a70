// Shared by the window, the command, notifications and forwarded messages, so all say the same. Money, tokens and
// durations are locale-independent; a clock time follows the system's 12- or 24-hour setting (formatDate).
import { USD } from './provider'

/** A figure that can be shown: not absent, NaN or infinite (Number.isFinite is false for null and undefined). */
function shown(value: number | null | undefined): value is number {
  return Number.isFinite(value)
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

/** Made once: Intl's compact notation is the one token form (950, 12.3K, 4.6M), the same on every machine. */
const tokenFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })

/** Token counts, the one form everywhere: 950, 12.3K, 4.6M. null (absent) is shown as a dash, not as 0. */
export function formatTokens(value: number | null | undefined): string {
  if (!shown(value)) return '–'
  return tokenFormat.format(Math.round(value))
}

/** One duration form for every span: "42 s", "4 m 05 s", "1 h 02 m", "2 d 3 h" (the smaller unit padded, so a ticking
 * duration keeps its width). */
function durationText(totalSeconds: number): string {
  if (totalSeconds < 60) return `${totalSeconds} s`
  const totalMinutes = Math.floor(totalSeconds / 60)
  if (totalMinutes < 60) return `${totalMinutes} m ${pad(totalSeconds % 60)} s`
  const totalHours = Math.floor(totalMinutes / 60)
  if (totalHours < 24) return `${totalHours} h ${pad(totalMinutes % 60)} m`
  return `${Math.floor(totalHours / 24)} d ${totalHours % 24} h`
}

/** How long something took (a step, a task): "<1 s" under a second, then the one duration form. */
export function formatDuration(ms: number | null | undefined): string {
  if (!shown(ms) || ms < 0) return '–'
  if (ms > 0 && ms < 1000) return '<1 s'
  return durationText(Math.floor(ms / 1000))
}

/** Under this, a moment ago reads "just now" (formatRelativeTime). */
export const JUST_NOW_MS = 10_000

/** Running work as a ticking duration: whole seconds from "0 s"; a start just ahead of our clock is 0 s, not a dash. */
export function formatElapsed(ms: number | null | undefined): string {
  if (!shown(ms)) return '–'
  return durationText(Math.floor(Math.max(0, ms) / 1000))
}

/** How long something ran, for a sentence ("completed in 51 s"): the one duration form, to the nearest second. */
export function formatRunTime(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < 0) return null
  return durationText(Math.round(ms / 1000))
}

/** A period chosen in a setting ("Every 1 m"): its whole unit, never a ticking form like "1 m 00 s". */
export function formatInterval(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} m`
  return formatDuration(ms)
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/** An age: "just now", "30 s ago", "3 m ago", "in 2 h"; from a week on, the day in the one date form (formatDate). */
export function formatRelativeTime(then: Date | string | number, now: Date | number, timeZone?: string): string {
  const t = new Date(then).getTime()
  const n = new Date(now).getTime()
  if (!Number.isFinite(t) || !Number.isFinite(n)) return '–'
  const diff = n - t
  const abs = Math.abs(diff)
  const wrap = (s: string): string => (diff >= 0 ? `${s} ago` : `in ${s}`)
  // A server clock a little ahead of ours is skew, not the future.
  if (abs < JUST_NOW_MS || (diff < 0 && abs < 60_000)) return 'just now'
  if (abs < 60_000) return wrap(`${Math.floor(abs / 1000)} s`)
  if (abs < 3_600_000) return wrap(`${Math.floor(abs / 60_000)} m`)
  if (abs < 86_400_000) return wrap(`${Math.floor(abs / 3_600_000)} h`)
  if (abs < 7 * 86_400_000) return wrap(`${Math.floor(abs / 86_400_000)} d`)
  return formatDate(new Date(t).toISOString(), n, timeZone)
}

/**
 * Money, the one form everywhere: always cents ("$0.33", "$100.00", an axis tick, a budget, a notification, a
 * forwarded message), "<$0.01" so a non-zero amount never reads as nothing. More decimals only where a column of
 * tiny prices needs them: usage records and the sums compared with them (usdColumnDecimals, SERVICE_PRICE_DECIMALS),
 * and the CSV.
 */
export function formatMoney(value: number | null | undefined): string {
  return formatUsdFixed(value, 2)
}

/** An amount in its unit: USD as money, any other unit as the amount (2 decimals at most, "<0.01" when tiny) and the
 * unit's name ("42.5 ACU", "3 premium requests"). */
export function formatAmount(amount: number | null | undefined, unit: string): string {
  if (unit === USD) return formatMoney(amount)
  if (!shown(amount)) return `– ${unit}`
  const abs = Math.abs(amount)
  const text = abs > 0 && abs < 0.005 ? '<0.01' : amountFormat.format(amount)
  return `${text} ${unit}`
}
const amountFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })

/** The step of money's axis ticks: a cent, so every tick can be written with two decimals. */
export const MONEY_TICK_STEP = 0.01

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const

// Made once per zone and locale: a formatter costs far more to build than to use, and lists format many dates.
const dayFormats = new Map<string | undefined, Intl.DateTimeFormat>()
const clockFormats = new Map<string, Intl.DateTimeFormat>()

function dayFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' })
    dayFormats.set(timeZone, format)
  }
  return format
}

// The window's clock follows the OS's regional format, which main reads (Chromium's own locale is its UI language).
let systemClockLocale: string | undefined

/** Sets the locale clock times use when none is given; null or unreadable: the default locale. */
export function setClockLocale(locale: string | null | undefined): void {
  systemClockLocale = locale ? clockLocaleTag(locale, null) : undefined
}

/** A system locale ("en_GB", "de-DE") as a BCP 47 tag, with the hour cycle the OS forces (macOS keeps it apart). */
export function clockLocaleTag(locale: string, hourCycle: 'h12' | 'h23' | null): string | undefined {
  try {
    const [tag] = Intl.getCanonicalLocales(locale.replace(/\..*$/, '').replace(/_/g, '-'))
    if (tag === undefined) return undefined
    return hourCycle === null ? tag : new Intl.Locale(tag, { hourCycle }).toString()
  } catch {
    return undefined
  }
}

/**
 * A time of day in the locale's own hour cycle, never a fixed h23. Undefined is the default locale: the system's in
 * the command (ICU reads LC_ALL/LC_TIME/LANG), the OS's regional format in the window (setClockLocale).
 */
function clockFormat(timeZone: string | undefined, locale: string | undefined): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${locale ?? ''}`
  let format = clockFormats.get(key)
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' })
    clockFormats.set(key, format)
  }
  return format
}

/**
 * The one date form: "today 9:05 AM" (or "today 09:05" on a 24-hour clock: never a bare time that reads as a
 * duration), "Nov 26" another day, "Nov 26, 2025" another year.
 */
export function formatDate(
  iso: string | null | undefined,
  now: Date | number,
  timeZone?: string,
  locale?: string
): string {
  if (!iso) return '–'
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return iso
  const format = dayFormat(timeZone)
  const parts = (at: number): Record<string, string> =>
    Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]))
  const then = parts(t)
  const today = parts(new Date(now).getTime())
  if (then.year === today.year && then.month === today.month && then.day === today.day)
    return `today ${clockFormat(timeZone, locale ?? systemClockLocale).format(t)}`
  const day = `${MONTHS[Number(then.month) - 1]} ${then.day}`
  return then.year === today.year ? day : `${day}, ${then.year}`
}

/** A time of day ("HH:MM", as quiet hours keep it) on the locale's own clock: "10:30 PM", or "22:30". */
export function formatTimeOfDay(time: string, locale?: string): string {
  const m = /^(\d{2}):(\d{2})$/.exec(time)
  if (!m) return time
  return clockFormat('UTC', locale ?? systemClockLocale).format(Date.UTC(2000, 0, 1, Number(m[1]), Number(m[2])))
}

/** "as of" a time: the clock alone today (the words before it say it is a time), else the one date form. */
export function formatAsOf(iso: string, now: Date | number, timeZone?: string, locale?: string): string {
  return formatDate(iso, now, timeZone, locale).replace(/^today /, '')
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
