// Whether a request to one of our loopback servers (the reference service, the test host) names
// that server in its Host header. A web page can reach a loopback server through DNS rebinding: its
// own host name, pointed at 127.0.0.1, makes the browser treat the server as same-origin, but the
// browser still sends that name as Host. Refusing any other name closes the door.

/** The host part and port of a Host header, lowercase; undefined when it cannot be read. */
function splitHost(header: string): { name: string; port: number | undefined } | undefined {
  const text = header.trim().toLowerCase()
  let name: string
  let rest: string
  if (text.startsWith('[')) {
    // Without a ']' the name is empty and the rest (all of it) no port: unreadable below.
    const end = text.indexOf(']')
    name = text.slice(0, end + 1)
    rest = text.slice(end + 1)
  } else {
    const colon = text.indexOf(':')
    name = colon === -1 ? text : text.slice(0, colon)
    rest = colon === -1 ? '' : text.slice(colon)
  }
  if (rest === '') return { name, port: undefined }
  if (!/^:\d{1,5}$/.test(rest)) return undefined
  return { name, port: Number(rest.slice(1)) }
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']
/** Every address, as `ownName` spells it (IPv6 in brackets). */
const WILDCARDS = ['0.0.0.0', '[::]']

// A name in brackets always ends with the ']' splitHost cut it at.
const isIpLiteral = (name: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith('[')

/**
 * Whether `header` names the server listening on `host`:`port`: its own address, or localhost and
 * the loopback addresses when it listens on loopback or on every address; on every address, any IP
 * address too (an address cannot be rebound: only names can). Always with its port (or none, on 80).
 */
export function isOwnHost(header: string | undefined, server: { host: string; port: number }): boolean {
  if (header === undefined) return false
  const parsed = splitHost(header)
  if (!parsed) return false
  if ((parsed.port ?? 80) !== server.port) return false
  const own = server.host.toLowerCase()
  const ownName = own.includes(':') && !own.startsWith('[') ? `[${own}]` : own
  const loopback = LOOPBACK_NAMES.includes(ownName) || ownName.startsWith('127.')
  const everywhere = WILDCARDS.includes(ownName)
  if (parsed.name === ownName) return true
  if ((loopback || everywhere) && LOOPBACK_NAMES.includes(parsed.name)) return true
  return everywhere && isIpLiteral(parsed.name)
}
