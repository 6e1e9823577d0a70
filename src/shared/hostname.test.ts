import { describe, expect, it } from 'vitest'
import { checkPublishHostname, checkPublishSubdomain, checkSubdomainLabel, hostnameFor, isValidSubdomainLabel, subdomainOf } from './hostname'

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
  })
})
