import { describe, expect, it } from 'vitest'
import { checkBaseUrl, isLoopbackHost, keyTransportProblem, parseBaseUrl, sameOrigin } from './base-url'

describe('the base-URL rule', () => {
  it('normalises the shape: trailing slashes off, host lowercased, path prefix kept', () => {
    expect(parseBaseUrl(' https://API.example.com/v1/// ')).toEqual({ ok: true, baseUrl: 'https://api.example.com/v1', origin: 'https://api.example.com' })
  })

  it('refuses malformed addresses without repeating them', () => {
    for (const [input, problem] of [
      ['', /Enter the service address/],
      ['api.example.com', /must be a full URL/],
      ['ftp://x.example', /must start with https:\/\//],
      ['https://a b.example', /spaces or control/],
      ['https://x.example/\u0007', /spaces or control/],
      ['https://sk-secret-1@x.example', /must not carry a user name or password/],
      ['https://x.example/?key=sk-secret-2', /query/],
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

  it('sends a key over https anywhere, and over plain http to this machine only', () => {
    for (const url of ['https://api.example.com', 'http://localhost:4010', 'http://127.0.0.1', 'http://127.9.8.7:1/x', 'http://[::1]:9']) {
      expect(keyTransportProblem(url), url).toBeNull()
    }
    for (const url of ['http://api.example.com', 'http://10.0.0.1', 'http://localhost.evil.test', 'http://127.0.0.1.nip.io', 'http://[fe80::1]']) {
      expect(keyTransportProblem(url), url).toMatch(/must use https/)
      expect(checkBaseUrl(url).ok, url).toBe(false)
    }
    expect(isLoopbackHost('LOCALHOST')).toBe(true)
  })

  it('compares origins, so a key stays where it was given', () => {
    expect(sameOrigin('https://a.example/v1', 'https://a.example/v2')).toBe(true)
    expect(sameOrigin('https://a.example', 'http://a.example')).toBe(false)
    expect(sameOrigin('https://a.example', 'https://a.example:8443')).toBe(false)
    expect(sameOrigin('https://a.example', 'not a url')).toBe(false)
  })
})
