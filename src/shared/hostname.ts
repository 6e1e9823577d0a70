// Publish hostnames (docs/service-interface.md §4.5): `{sub}.{publishing domain}`, where the
// publishing domain is the service's own. Pure checks shared by the service, renderer and CLI.

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** A DNS label as the service accepts it: lowercase letters, digits, inner hyphens, 1–63 characters. */
export function isValidSubdomainLabel(label: string): boolean {
  return LABEL.test(label)
}

export function hostnameFor(sub: string, publishingDomain: string): string {
  return `${sub}.${publishingDomain}`
}

/** Why a sub-domain label is not accepted; empty when it is. */
export function checkSubdomainLabel(label: string): string[] {
  if (label === '') return ['The sub-domain is empty.']
  const reasons: string[] = []
  if (label.length > 63) reasons.push(`The sub-domain is ${label.length} characters long; at most 63 are allowed.`)
  if (label !== label.toLowerCase()) reasons.push('The sub-domain must be lowercase.')
  if (/[^a-zA-Z0-9-]/.test(label)) {
    reasons.push('The sub-domain may contain only letters a–z, digits and hyphens.')
  }
  if (label.startsWith('-') || label.endsWith('-')) {
    reasons.push('The sub-domain must not start or end with a hyphen.')
  }
  // The rules above name every way a label can miss LABEL, so this list is empty only for a valid one
  // (hostname.test.ts checks it for any text).
  return reasons
}

/** Why `hostname` cannot be published under `publishingDomain`, for a person; custom domains are not accepted yet. */
export function checkPublishHostname(hostname: string, publishingDomain: string): string[] {
  const domain = publishingDomain.toLowerCase()
  if (hostname.trim() === '') return ['The hostname is empty.']
  // A URL (scheme://host/...) always holds a slash.
  if (hostname.includes('/')) {
    return [`Give a hostname such as ${hostnameFor('my-app', domain)}, not a URL.`]
  }
  if (/\s/.test(hostname)) return ['The hostname must not contain spaces.']
  if (hostname.includes(':')) return ['The hostname must not include a port.']
  if (hostname.endsWith('.')) return ['The hostname must not end with a dot.']
  const suffix = `.${domain}`
  if (!hostname.toLowerCase().endsWith(suffix) || hostname.length === suffix.length) {
    return [
      `The hostname must be a sub-domain of ${domain}, like ${hostnameFor('my-app', domain)}. Custom domains are not supported yet.`
    ]
  }
  const reasons: string[] = []
  if (hostname.slice(-suffix.length) !== suffix) reasons.push('The hostname must be lowercase.')
  const sub = hostname.slice(0, -suffix.length)
  if (sub.includes('.')) {
    reasons.push(`Only one level of sub-domain is allowed under ${domain}; "${sub}" has several.`)
    return reasons
  }
  return [...reasons, ...checkSubdomainLabel(sub)]
}

/** Why the sub-domain typed under `publishingDomain` cannot be published (the window types only that part); empty when it can. */
export function checkPublishSubdomain(sub: string, publishingDomain: string): string[] {
  if (sub === '') return ['Enter a sub-domain.']
  return checkPublishHostname(hostnameFor(sub, publishingDomain), publishingDomain)
}

/** The sub-domain of a hostname under `publishingDomain`, or undefined if it is not one. */
export function subdomainOf(hostname: string, publishingDomain: string): string | undefined {
  const suffix = `.${publishingDomain.toLowerCase()}`
  if (!hostname.endsWith(suffix)) return undefined
  const sub = hostname.slice(0, -suffix.length)
  return sub === '' || sub.includes('.') ? undefined : sub
}

/** Why `text` cannot be a publishing domain (lowercase DNS name of two labels or more), or null. */
export function publishingDomainProblem(text: string): string | null {
  if (text.length > 253) return 'must be at most 253 characters'
  const labels = text.split('.')
  if (labels.length < 2 || !labels.every(isValidSubdomainLabel))
    return 'must be a domain such as apps.example.com, without https://'
  return null
}
