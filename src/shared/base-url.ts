// A base URL's shape and its transport are checked apart: a stored connection that breaks only the transport rule
// (the key goes in a header, so https or local http) is kept for the user to fix, but never gets the key.

import type { Connection } from './settings'

export const MAX_BASE_URL_LENGTH = 2048

export type BaseUrlCheck = { ok: true; baseUrl: string; origin: string } | { ok: false; problem: string }

// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f]/

/** Whether a hostname (as URL.hostname gives it) is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/** The shape check; messages never repeat the URL, which may hold a credential. */
export function parseBaseUrl(input: string): BaseUrlCheck {
  const text = typeof input === 'string' ? input.trim() : ''
  if (text === '') return { ok: false, problem: 'Enter the service address, such as https://api.example.com.' }
  if (text.length > MAX_BASE_URL_LENGTH)
    return { ok: false, problem: `The service address must be at most ${MAX_BASE_URL_LENGTH} characters.` }
  if (CONTROL_OR_SPACE.test(text))
    return { ok: false, problem: 'The service address must not contain spaces or control characters.' }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, problem: 'The service address must be a full URL, such as https://api.example.com.' }
  }
  if (url.username !== '' || url.password !== '') {
    return {
      ok: false,
      problem:
        'The service address must not carry a user name or password: the API key is kept in the keychain, not in the URL.'
    }
  }
  // An http(s) URL without a host does not parse (WHATWG URL: special schemes need one).
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, problem: 'The service address must start with https:// (or http:// for this machine).' }
  }
  if (url.search !== '' || url.hash !== '')
    return { ok: false, problem: 'The service address must not have a query (?) or fragment (#).' }
  return { ok: true, baseUrl: `${url.origin}${url.pathname}`.replace(/\/+$/, ''), origin: url.origin }
}

/** Why no API key may be sent to this (well-formed) base URL, or null when it may. */
export function keyTransportProblem(baseUrl: string): string | null {
  const url = URL.parse(baseUrl)
  if (!url) return 'The service address is not a URL.'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null
  return 'The service address must use https: plain http would send the API key in clear text, and is allowed only to this machine (localhost, 127.0.0.1, [::1]).'
}

/** Both checks: what a new or changed connection must pass before it is stored or used. */
export function checkBaseUrl(input: string): BaseUrlCheck {
  const parsed = parseBaseUrl(input)
  if (!parsed.ok) return parsed
  const problem = keyTransportProblem(parsed.baseUrl)
  return problem === null ? parsed : { ok: false, problem }
}

/** What a connection is called when the user gave no name: its host. */
export function defaultConnectionName(baseUrl: string): string {
  return URL.parse(baseUrl)?.host || baseUrl
}

/** A connection known by its address alone (found by it, or restored from the keychain): named after its host. */
export function connectionAt(id: string, baseUrl: string): Connection {
  return { id, name: defaultConnectionName(baseUrl), baseUrl, publishingDomain: '' }
}

/** Whether two base URLs reach the same origin (scheme, host, port): a key stays with its origin. */
export function sameOrigin(a: string, b: string): boolean {
  const x = URL.parse(a)
  const y = URL.parse(b)
  return x !== null && y !== null && x.origin === y.origin
}

/** The real service behind the interface (Workser's coding-agent API): the default for a new connection. */
export const DEFAULT_SERVICE_URL = 'https://api.workser.ai'

/** What the service at DEFAULT_SERVICE_URL is called: a new connection's name until the user changes it. */
export const DEFAULT_SERVICE_NAME = 'Workser'

/** Where a person gets a key for the service at DEFAULT_SERVICE_URL (the first run's "Get a key"); the interface
 * documents no key page (docs: "Key issuance: not shown"), so the service's site. */
export const DEFAULT_SERVICE_KEYS_URL = 'https://workser.ai'
