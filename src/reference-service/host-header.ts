// DNS rebinding lets a web page reach a loopback server as same-origin under its own host name, which the browser
// still sends as Host: refusing any name but the server's closes that door.

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

/** The server's own address, or loopback names when it listens there; on every address any IP too, since only names
 *  can be rebound. Always with its port (or none, on 80). */
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
