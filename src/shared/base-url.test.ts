import { describe, expect, it } from 'vitest'
import {
  checkBaseUrl,
  defaultConnectionName,
  isLoopbackHost,
  keyTransportProblem,
  MAX_BASE_URL_LENGTH,
  parseBaseUrl,
  sameOrigin
} from './base-url'

describe('the base-URL rule', () => {
  it('normalises the shape: trailing slashes off, host lowercased, path prefix kept', () => {
    expect(parseBaseUrl(' https://API.example.com/v1/// ')).toEqual({
      ok: true,
      baseUrl: 'https://api.example.com/v1',
      origin: 'https://api.example.com'
    })
  })

  it('refuses malformed addresses without repeating them', () => {
    for (const [input, problem] of [
      ['', /Enter the service address/],
      ['api.example.com', /must be a full URL/],
      ['ftp://x.example', /must start with https:\/\//],
      ['https://a b.example', /spaces or control/],
      ['https://x.example/\u0007', /spaces or control/],
      ['https://sk-secret-1@x.example', /must not carry a user name or password/],
      ['https://:sk-secret-3@x.example', /must not carry a user name or password/],
      ['https://x.example/?key=sk-secret-2', /query/],
      ['https://x.example/#sk-secret-4', /fragment/],
      ['   ', /Enter the service address/],
      [`https://x.example/${'a'.repeat(2048)}`, /at most 2048/]
    ] as const) {
      const checked = parseBaseUrl(input)
      expect(checked.ok, input).toBe(false)
      if (!checked.ok) {
        expect(checked.problem, input).toMatch(problem)
        expect(checked.problem).not.toMatch(/sk-secret/)
      }
    }
  })

  it('takes plain http as a shape (the transport rule is apart), and an address of up to 2048 characters', () => {
    expect(parseBaseUrl('http://api.example.com/')).toEqual({
      ok: true,
      baseUrl: 'http://api.example.com',
      origin: 'http://api.example.com'
    })
    const longest = `https://x.example/${'a'.repeat(MAX_BASE_URL_LENGTH - 'https://x.example/'.length)}`
    expect(parseBaseUrl(longest)).toEqual({ ok: true, baseUrl: longest, origin: 'https://x.example' })
  })

  it('reads a request without an address as an empty one', () => {
    expect(parseBaseUrl(undefined as unknown as string)).toEqual({
      ok: false,
      problem: 'Enter the service address, such as https://api.example.com.'
    })
  })

  it('checks the shape first, then the transport, and passes what passes both', () => {
    expect(checkBaseUrl('')).toEqual({
      ok: false,
      problem: 'Enter the service address, such as https://api.example.com.'
    })
    expect(checkBaseUrl('https://api.example.com/v1/')).toEqual({
      ok: true,
      baseUrl: 'https://api.example.com/v1',
      origin: 'https://api.example.com'
    })
    expect(checkBaseUrl('http://127.0.0.1:4010')).toEqual({
      ok: true,
      baseUrl: 'http://127.0.0.1:4010',
      origin: 'http://127.0.0.1:4010'
    })
    expect(keyTransportProblem('not a url')).toBe('The service address is not a URL.')
  })

  it('names a connection by its host (and port), or by the text when it is no URL', () => {
    expect(defaultConnectionName('https://api.example.com:8443/v1')).toBe('api.example.com:8443')
    expect(defaultConnectionName('not a url')).toBe('not a url')
  })

  it('sends a key over https anywhere, and over plain http to this machine only', () => {
    for (const url of [
      'https://api.example.com',
      'http://localhost:4010',
      'http://127.0.0.1',
      'http://127.9.8.7:1/x',
      'http://127.10.200.30',
      'http://[::1]:9'
    ]) {
      expect(keyTransportProblem(url), url).toBeNull()
    }
    for (const url of [
      'http://api.example.com',
      'http://10.0.0.1',
      'http://localhost.evil.test',
      'http://127.0.0.1.nip.io',
      'http://[fe80::1]',
      'ws://localhost:4010'
    ]) {
      expect(keyTransportProblem(url), url).toMatch(/must use https/)
      expect(checkBaseUrl(url).ok, url).toBe(false)
    }
    expect(isLoopbackHost('LOCALHOST')).toBe(true)
    // Only the whole of 127.0.0.0/8 as four numbers, not a name that holds one.
    for (const host of ['x127.0.0.1', '127.0.0.1x', '127.0.0.1.example']) expect(isLoopbackHost(host), host).toBe(false)
  })

  it('compares origins, so a key stays where it was given', () => {
    expect(sameOrigin('https://a.example/v1', 'https://a.example/v2')).toBe(true)
    expect(sameOrigin('https://a.example', 'http://a.example')).toBe(false)
    expect(sameOrigin('https://a.example', 'https://a.example:8443')).toBe(false)
    expect(sameOrigin('https://a.example', 'not a url')).toBe(false)
    expect(sameOrigin('not a url', 'https://a.example')).toBe(false)
  })
})
