import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  checkPublishHostname,
  checkPublishSubdomain,
  checkSubdomainLabel,
  hostnameFor,
  isValidSubdomainLabel,
  publishingDomainProblem,
  subdomainOf
} from './hostname'

const D = 'apps.agent-tray.test'

describe('isValidSubdomainLabel', () => {
  it.each(['a', 'my-app', 'app1', '0', 'a'.repeat(63), 'x-y-z'])('accepts %s', (label) => {
    expect(isValidSubdomainLabel(label)).toBe(true)
  })
  it.each(['', '-a', 'a-', 'A', 'my_app', 'a.b', 'a'.repeat(64), 'é', 'a b'])('rejects %j', (label) => {
    expect(isValidSubdomainLabel(label)).toBe(false)
    expect(checkSubdomainLabel(label).length).toBeGreaterThan(0)
  })
})

describe('checkSubdomainLabel', () => {
  it('names each rule a label breaks, in words for a person', () => {
    expect(checkSubdomainLabel('')).toEqual(['The sub-domain is empty.'])
    expect(checkSubdomainLabel('a'.repeat(63))).toEqual([])
    expect(checkSubdomainLabel('a'.repeat(64))).toEqual([
      'The sub-domain is 64 characters long; at most 63 are allowed.'
    ])
    expect(checkSubdomainLabel('My-app')).toEqual(['The sub-domain must be lowercase.'])
    expect(checkSubdomainLabel('my_app')).toEqual(['The sub-domain may contain only letters a–z, digits and hyphens.'])
    for (const label of ['-app', 'app-'])
      expect(checkSubdomainLabel(label), label).toEqual(['The sub-domain must not start or end with a hyphen.'])
    expect(checkSubdomainLabel('-My_app')).toEqual([
      'The sub-domain must be lowercase.',
      'The sub-domain may contain only letters a–z, digits and hyphens.',
      'The sub-domain must not start or end with a hyphen.'
    ])
  })

  it('gives a reason for any text that is not a valid label, and none for one that is', () => {
    // Labels and near-labels: the characters the rules are about, and the lengths around 63.
    const text = fc.string({ unit: fc.constantFrom('a', 'z', '0', '9', '-', 'A', '_', '.', ' ', 'é'), maxLength: 66 })
    const longish = fc
      .tuple(fc.constantFrom('a', '-'), fc.integer({ min: 60, max: 66 }), fc.constantFrom('', '-', 'b'))
      .map(([c, n, end]) => 'x' + c.repeat(n) + end)
    fc.assert(
      fc.property(fc.oneof(text, longish), (label) => {
        expect(checkSubdomainLabel(label).length === 0).toBe(isValidSubdomainLabel(label))
      }),
      { numRuns: 400 }
    )
  })
})

describe('checkPublishHostname', () => {
  it('accepts a sub-domain of the publishing domain', () => {
    expect(checkPublishHostname('my-app.apps.agent-tray.test', D)).toEqual([])
    expect(checkPublishHostname(hostnameFor('x1', D), D)).toEqual([])
  })

  it.each([
    ['', /empty/],
    ['https://my-app.apps.agent-tray.test', /not a URL/],
    ['my-app.example.com', /sub-domain of apps\.agent-tray\.test/],
    ['apps.agent-tray.test', /sub-domain of/],
    ['.apps.agent-tray.test', /sub-domain of/],
    ['a.b.apps.agent-tray.test', /one level/],
    ['My-App.apps.agent-tray.test', /lowercase/],
    ['-app.apps.agent-tray.test', /hyphen/],
    ['my_app.apps.agent-tray.test', /letters/],
    [`${'a'.repeat(64)}.apps.agent-tray.test`, /63/],
    ['my-app.apps.agent-tray.test:443', /port/],
    ['my-app.apps.agent-tray.test.', /dot/],
    ['my app.apps.agent-tray.test', /spaces/],
    ['my-app.APPS.agent-tray.test', /lowercase/]
  ])('rejects %j with a reason', (hostname, reason) => {
    const reasons = checkPublishHostname(hostname, D)
    expect(reasons.length).toBeGreaterThan(0)
    expect(reasons.join(' ')).toMatch(reason)
  })

  it('says what to type instead of a URL or a host outside the publishing domain', () => {
    for (const url of ['https://my-app.apps.agent-tray.test', 'my-app.apps.agent-tray.test/path', 'HTTP://x']) {
      expect(checkPublishHostname(url, D), url).toEqual([
        'Give a hostname such as my-app.apps.agent-tray.test, not a URL.'
      ])
    }
    expect(checkPublishHostname('my-app.example.com', 'Apps.Agent-Tray.test')).toEqual([
      'The hostname must be a sub-domain of apps.agent-tray.test, like my-app.apps.agent-tray.test. Custom domains are not supported yet.'
    ])
  })

  it('calls a hostname of spaces only empty, and names a port even on a hostname outside the domain', () => {
    expect(checkPublishHostname('   ', D)).toEqual(['The hostname is empty.'])
    expect(checkPublishHostname('my-app.apps.agent-tray.test:443', D)).toEqual([
      'The hostname must not include a port.'
    ])
    expect(checkPublishHostname('localhost:8080', D)).toEqual(['The hostname must not include a port.'])
  })

  it('is not fooled by a domain that merely ends the same way', () => {
    expect(checkPublishHostname('x.evilapps.agent-tray.test', D)).not.toEqual([])
  })
})

describe('checkPublishSubdomain', () => {
  it('asks for a sub-domain when none is typed, else checks the hostname it makes', () => {
    expect(checkPublishSubdomain('', D)).toEqual(['Enter a sub-domain.'])
    expect(checkPublishSubdomain('my-app', D)).toEqual([])
    expect(checkPublishSubdomain('My_App', D)).toEqual(checkPublishHostname('My_App.apps.agent-tray.test', D))
    expect(checkPublishSubdomain('a.b', D).join(' ')).toMatch(/one level/)
  })
})

describe('subdomainOf', () => {
  it('extracts the label or gives undefined', () => {
    expect(subdomainOf('my-app.apps.agent-tray.test', D)).toBe('my-app')
    expect(subdomainOf('a.b.apps.agent-tray.test', D)).toBeUndefined()
    expect(subdomainOf('x.example.com', D)).toBeUndefined()
    // A host under another domain as long as the publishing one; and the domain itself with a leading dot.
    expect('.other-publisher.test').toHaveLength(`.${D}`.length)
    expect(subdomainOf('my-app.other-publisher.test', D)).toBeUndefined()
    expect(subdomainOf('.apps.agent-tray.test', D)).toBeUndefined()
  })
})

describe('publishingDomainProblem', () => {
  it('takes a lowercase DNS name of two labels or more, up to 253 characters', () => {
    for (const ok of [
      'apps.example.com',
      'example.com',
      'a.b',
      `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`
    ]) {
      expect(publishingDomainProblem(ok), ok).toBeNull()
    }
    expect(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`).toHaveLength(253)
  })

  it('refuses a longer name, one label, a URL or a name with an invalid label', () => {
    const long = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`
    expect(publishingDomainProblem(long)).toBe('must be at most 253 characters')
    for (const bad of [
      'localhost',
      '',
      'https://apps.example.com',
      'Apps.example.com',
      'apps..example.com',
      'apps.example.com.',
      '-apps.example.com',
      'apps.exam_ple.com'
    ]) {
      expect(publishingDomainProblem(bad), bad).toBe('must be a domain such as apps.example.com, without https://')
    }
  })
})
