// Targets are URLs in Apprise's syntax, the form people already use (ntfy, Slack, Discord, tgram, else a JSON webhook).
// The URL carries the token, so it lives in the key store and never in a message here.
import { isIP } from 'node:net'
import { isLoopbackHost, keyTransportProblem, MAX_BASE_URL_LENGTH } from '../../shared/base-url'
import { LINE_CONTROL } from '../../shared/controls'
import { KIND_TITLES, type TargetKind, targetKindOf } from '../../shared/forward-target'
import { MIN_SECRET_LENGTH } from '../secrets/redact'

export { KIND_TITLES, type TargetKind }

/** Where a target's messages go. `url` holds the token: keep it out of every file and message. */
export interface ParsedTarget {
  kind: TargetKind
  /** What the settings and the list show: the host (with a port when given), never a path. */
  host: string
  /** The request's address. */
  url: string
  /** ntfy: the topic; telegram: the chat id. */
  channel?: string
  /** ntfy with user:password in the URL: its Authorization header. */
  authorization?: string
}

export type TargetCheck = { ok: true; target: ParsedTarget } | { ok: false; problem: string }

const TELEGRAM = /^tgram:\/\/(\d{3,}:[A-Za-z0-9_-]{10,})\/(-?\d+|@[A-Za-z0-9_]{4,})\/?$/
export const TELEGRAM_API = 'https://api.telegram.org'
const NTFY_SH = 'ntfy.sh'

const fail = (problem: string): TargetCheck => ({ ok: false, problem })

/** The transport rule of src/shared/base-url.ts: a token, like a key, goes over https or to this machine only. */
function transportProblem(url: string): string | null {
  return keyTransportProblem(url) === null
    ? null
    : 'The target must use https: plain http would send its token in clear text, and is allowed only to this machine (localhost, 127.0.0.1, [::1]).'
}

/** ntfy://topic names a topic on ntfy.sh; what reads as a server there is refused, never published to. */
function topicOnlyProblem(url: URL): string | null {
  const server = 'For your own server write ntfys://host/topic, or ntfy://host:port/topic on this machine.'
  if (url.username !== '' || url.password !== '')
    return `ntfy://topic is a topic on ntfy.sh: a user name or password goes with a server and its topic. ${server}`
  if (url.port !== '') return `ntfy://topic is a topic on ntfy.sh and takes no port. ${server}`
  // A dot (a domain, an IPv4 address), a colon (an IPv6 address) or localhost: a server, not a topic.
  const name = url.hostname.toLowerCase()
  if (name.includes('.') || name.includes(':') || name === 'localhost') {
    return `This reads as a server with no topic; ntfy://topic is a topic on ntfy.sh. ${server}`
  }
  return null
}

function ntfy(url: URL): TargetCheck {
  const secure = url.protocol === 'ntfys:'
  const segments = url.pathname.split('/').filter((s) => s !== '')
  const topicOnly = segments.length === 0 ? topicOnlyProblem(url) : null
  if (topicOnly) return fail(topicOnly)
  // ntfy://topic alone means the public server, as Apprise reads it (always over https).
  const [host, topic, scheme] =
    segments.length === 0
      ? [NTFY_SH, decodeURIComponent(url.hostname), 'https']
      : [url.host, decodeURIComponent(segments[0]!), secure ? 'https' : 'http']
  if (segments.length > 1) return fail('An ntfy target is ntfy://host/topic: one topic, no further path.')
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(topic)) return fail('An ntfy topic is 1 to 64 letters, digits, - or _.')
  const send = `${scheme}://${host}/`
  const problem = transportProblem(send)
  if (problem) return fail(`${problem} Use ntfys:// for a remote ntfy server.`)
  const target: ParsedTarget = { kind: 'ntfy', host, url: send, channel: topic }
  if (url.username !== '') {
    const user = decodeURIComponent(url.username)
    const password = decodeURIComponent(url.password)
    target.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
  }
  return { ok: true, target }
}

/** Recognises a target URL; the problem never repeats the URL, which holds a token. */
export function parseTarget(input: string): TargetCheck {
  const text = typeof input === 'string' ? input.trim() : ''
  if (text === '') return fail('Paste the target URL, such as ntfys://ntfy.sh/my-topic or a Slack webhook URL.')
  if (text.length > MAX_BASE_URL_LENGTH) return fail(`A target URL must be at most ${MAX_BASE_URL_LENGTH} characters.`)
  if (LINE_CONTROL.test(text) || /\s/.test(text))
    return fail('A target URL must not contain spaces or control characters.')
  const kind = targetKindOf(text)
  if (kind === 'telegram') {
    const m = TELEGRAM.exec(text)
    if (!m) return fail('A Telegram target is tgram://BOT_TOKEN/CHAT_ID (the token as BotFather gives it).')
    return {
      ok: true,
      target: {
        kind: 'telegram',
        host: new URL(TELEGRAM_API).host,
        url: `${TELEGRAM_API}/bot${m[1]}/sendMessage`,
        channel: m[2]!
      }
    }
  }
  const url = URL.parse(text)
  if (!url || kind === null)
    return fail('A target must be a URL: ntfy://, ntfys://, tgram://, or an https webhook URL.')
  if (kind === 'ntfy') {
    try {
      return ntfy(url)
    } catch {
      return fail('An ntfy target has a broken %-escape in its topic, user name or password.')
    }
  }
  if (url.username !== '' || url.password !== '') return fail('A webhook URL must not carry a user name or password.')
  const problem = transportProblem(url.href)
  if (problem) return fail(problem)
  const host = url.hostname.toLowerCase()
  if (kind === 'slack') {
    if (!/^\/services\/[A-Z0-9]+\/[A-Z0-9]+\/[A-Za-z0-9]+\/?$/.test(url.pathname))
      return fail('A Slack target is its incoming-webhook URL: https://hooks.slack.com/services/T…/B…/….')
    return { ok: true, target: { kind: 'slack', host, url: url.href } }
  }
  if (kind === 'discord') {
    if (!/^\/api\/webhooks\/\d+\/[A-Za-z0-9_-]+\/?$/.test(url.pathname))
      return fail('A Discord target is its webhook URL: https://discord.com/api/webhooks/ID/TOKEN.')
    return { ok: true, target: { kind: 'discord', host, url: url.href } }
  }
  if (url.hash !== '') return fail('A webhook URL must not have a fragment (#).')
  return {
    ok: true,
    target: { kind: 'webhook', host: isLoopbackHost(url.hostname) ? url.host : url.host.toLowerCase(), url: url.href }
  }
}

/** A URL part this long is no word: redacted wherever it appears. A shorter one only with its URL text around it. */
const BARE_PART = 16

/** Adds a token-bearing part: alone when long, else only as it stands in a URL (each of `inUrl`), so a word elsewhere stays. */
function addPart(out: Set<string>, part: string, inUrl: string[]): void {
  if (part === '') return
  if (part.length >= BARE_PART) out.add(part)
  else for (const text of inUrl) out.add(text)
}

/** A host that carries an id (a label before the domain with a digit, or a long one: abcd1234.webhook.office.com). */
function hostCarriesId(hostname: string): boolean {
  if (isLoopbackHost(hostname) || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return false
  return hostname.split('.').slice(0, -2).some(labelCarriesId)
}

const labelCarriesId = (label: string): boolean => /\d/.test(label) || label.length >= BARE_PART

const readQuery = (text: string): string => {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '))
  } catch {
    return text
  }
}

/** Each query value with its name, as written and as read (token=abc), or alone when long. */
function addQuery(out: Set<string>, search: string): void {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const [name = '', value = ''] = pair.split(/=(.*)/s)
    addPart(out, readQuery(value), [pair, `${readQuery(name)}=${readQuery(value)}`])
    if (value.length >= BARE_PART) out.add(value)
  }
}

/** The URL and every part that carries identity, for redaction. A short part comes with its URL context
 * ('ntfy.sh/alerts'), so the topic 'alerts' leaves "3 alerts" alone. */
export function targetSecrets(input: string, parsed?: ParsedTarget): string[] {
  const raw = input.trim()
  const out = new Set<string>([raw])
  const t = parsed ?? (parseTarget(input) as { target?: ParsedTarget }).target
  if (t?.kind === 'ntfy' && t.channel) {
    // ntfy is published to the server's root: the topic (a public server's password) is its identity.
    addPart(out, t.channel, [`${t.host}/${t.channel}`, `"topic":"${t.channel}"`])
    // From the Authorization header, which the parsed target (all the sender has) keeps.
    const basic = t.authorization?.replace(/^Basic /, '') ?? ''
    const [user = '', ...password] = Buffer.from(basic, 'base64').toString('utf8').split(':')
    addPart(out, user, [`//${user}:`, `//${user}@`, `${user}@${t.host}`])
    out.add(password.join(':'))
    out.add(basic)
    const hostname = URL.parse(t.url)?.hostname ?? ''
    if (hostCarriesId(hostname)) out.add(hostname)
  } else if (t) {
    out.add(t.url)
    const url = URL.parse(t.url)
    const segments = (url?.pathname ?? '').split('/').filter((p) => p !== '')
    if (t.kind === 'telegram') for (const part of segments.filter((p) => /^bot\d+:/.test(p))) out.add(part.slice(3))
    else if (t.kind === 'slack' || t.kind === 'discord') {
      // After the fixed prefix (/services/, /api/webhooks/) every segment is an id or the token.
      for (const part of segments.slice(t.kind === 'slack' ? 1 : 2)) addPart(out, part, [`/${part}`])
    } else {
      // A path with a long token is known by it; one without is known whole (as a receiver echoes it).
      for (const part of segments) addPart(out, part, [])
      if (!segments.some((p) => p.length >= BARE_PART)) out.add(url!.pathname.replace(/\/+$/, ''))
      if (hostCarriesId(url!.hostname)) out.add(url!.hostname)
    }
    if (t.kind !== 'telegram') addQuery(out, url?.search ?? '')
  }
  return [...out].filter((s) => s.length >= MIN_SECRET_LENGTH)
}

/** A label that carries an id (what redaction takes out of logs) is shown as '…', e.g. '….webhook.office.com'. */
export function shownHost(target: Pick<ParsedTarget, 'host'>): string {
  const [hostname = '', port] = target.host.startsWith('[') ? [target.host] : target.host.split(/:(?=\d+$)/)
  if (!hostCarriesId(hostname)) return target.host
  const labels = hostname.split('.')
  const shown = labels.map((label, i) => (i < labels.length - 2 && labelCarriesId(label) ? '…' : label)).join('.')
  return port === undefined ? shown : `${shown}:${port}`
}

/** A target's default name: its kind and host, e.g. "Slack hooks.slack.com" (never the topic or a token). */
export function defaultTargetName(target: Pick<ParsedTarget, 'kind' | 'host'>): string {
  return `${KIND_TITLES[target.kind]} ${target.host}`
}
