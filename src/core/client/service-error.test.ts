import { describe, expect, it } from 'vitest'
import { errorForStatus, isServiceError, serverText, ServiceError, shorten } from './service-error'

describe('errorForStatus', () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [404, 'not_found'],
    [429, 'rate_limited'],
    [503, 'rate_limited'],
    [500, 'server'],
    [502, 'server'],
    [504, 'server'],
    [400, 'bad_request'],
    [413, 'bad_request'],
    [409, 'bad_request'],
    [422, 'bad_request']
  ] as const)('maps HTTP %i to %s', (status, kind) => {
    const e = errorForStatus(status, '')
    expect(e.kind).toBe(kind)
    expect(e.status).toBe(status)
    expect(e.message).toContain(String(status))
  })

  it('says what to do about a rejected key', () => {
    expect(errorForStatus(401, '').message).toBe('The API key was rejected (HTTP 401): check or replace it.')
  })

  it('says a 404 means the project or task is gone', () => {
    expect(errorForStatus(404, '').message).toContain('this project or task is gone')
  })

  it('carries the wait of a 429 or 503', () => {
    const e = errorForStatus(429, '', 2500)
    expect(e.retryAfterMs).toBe(2500)
    expect(e.message).toContain('3 s')
    expect(errorForStatus(503, '', 400).message).toContain('400 ms')
    expect(errorForStatus(503, '').retryAfterMs).toBeUndefined()
    expect(errorForStatus(429, '', 999).message).toContain('wait 999 ms.')
    expect(errorForStatus(429, '', 1000).message).toContain('wait 1 s.')
    expect(errorForStatus(503, '').message).toBe('The service is busy (HTTP 503): backing off.')
    // What crosses to the renderer has the wait, and no key for what is not known.
    expect(errorForStatus(429, '', 2500).toInfo()).toStrictEqual({
      kind: 'rate_limited',
      message: 'The service is busy (HTTP 429): backing off. The service asked to wait 3 s.',
      status: 429,
      retryAfterMs: 2500
    })
    expect(new ServiceError('network', 'no route').toInfo()).toStrictEqual({ kind: 'network', message: 'no route' })
  })

  it('says a 413 refused the request as too large', () => {
    expect(errorForStatus(413, '').message).toBe('The service refused the request as too large (HTTP 413).')
  })

  it("quotes the reference service's error body and keeps its field", () => {
    const e = errorForStatus(400, JSON.stringify({ error: { message: 'hostname is not ours', field: 'hostname' } }))
    expect(e.message).toContain('Server said: hostname is not ours')
    expect(e.details).toEqual({ field: 'hostname' })
  })

  it('quotes a list of messages as plain text', () => {
    const e = errorForStatus(
      422,
      JSON.stringify({ message: ['name must be a string', 'ref_id is too long'], error: 'Unprocessable Entity' })
    )
    expect(e.message).toBe(
      'The service refused the request (HTTP 422). Server said: name must be a string; ref_id is too long'
    )
    expect(e.toInfo().message).toBe(e.message)
  })

  it('quotes a plain text body, shortened to about 200 characters on one line', () => {
    const e = errorForStatus(500, `Bad\n\ngateway ${'x'.repeat(1000)}`)
    expect(e.message).toContain('Server said: Bad gateway xxx')
    expect(e.message.length).toBeLessThan(260)
    expect(e.message).toMatch(/…$/)
  })
})

describe('serverText', () => {
  it('reads common error shapes', () => {
    expect(serverText('{"error":"nope"}')).toEqual({ text: 'nope' })
    expect(serverText('{"message":"slow down"}')).toEqual({ text: 'slow down' })
    expect(serverText('{"detail":"Not Found"}')).toEqual({ text: 'Not Found' })
    expect(serverText('   ')).toEqual({})
    expect(serverText('[1,2]')).toEqual({ text: '[1,2]' })
    expect(serverText('null')).toEqual({ text: 'null' })
    expect(serverText('Bad Gateway')).toEqual({ text: 'Bad Gateway' })
  })

  it("reads the body's own message when its error object has none, and skips entries that say nothing", () => {
    expect(serverText('{"error":{"code":"E42"},"message":"quota used up"}')).toEqual({ text: 'quota used up' })
    expect(serverText('{"message":[null,"only this"]}')).toEqual({ text: 'only this' })
  })

  it('reads a message that is a list as plain text, one entry after another, never as JSON', () => {
    const nest = {
      statusCode: 400,
      message: ['name must be a string', 'user_email must be an email'],
      error: 'Bad Request'
    }
    expect(serverText(JSON.stringify(nest))).toEqual({ text: 'name must be a string; user_email must be an email' })
    expect(serverText('{"message":"slow down","error":"Too Many Requests"}')).toEqual({ text: 'slow down' })
    expect(serverText('{"message":["", "  ", "only this"]}')).toEqual({ text: 'only this' })
    expect(serverText('{"error":{"code":"bad_request","message":["a","b"],"field":"name"}}')).toEqual({
      text: 'a; b',
      field: 'name'
    })
    expect(serverText('{"detail":[{"loc":["body","name"],"msg":"field required"},{"msg":"too long"}]}')).toEqual({
      text: 'field required; too long'
    })
    expect(serverText('{"errors":[{"message":"first"},"second"]}')).toEqual({ text: 'first; second' })
    expect(serverText('{"title":"Not Found","status":404}')).toEqual({ text: 'Not Found' })
    expect(serverText('["one","two"]')).toEqual({ text: 'one; two' })
    expect(serverText('"just a string"')).toEqual({ text: 'just a string' })
  })

  it('a message list of any length ends as one short line', () => {
    const text =
      serverText(JSON.stringify({ message: Array.from({ length: 10_000 }, (_, i) => `reason\n${i}`) })).text ?? ''
    expect(text.length).toBeLessThanOrEqual(200)
    expect(text).toMatch(/^reason 0; reason 1; /)
    expect(text).not.toContain('\n')
  })
})

describe('shorten', () => {
  it('leaves short text alone and cuts long text with an ellipsis', () => {
    expect(shorten('a  b')).toBe('a b')
    expect(shorten('abcdef', 4)).toBe('abc…')
    expect(shorten('abcd', 4)).toBe('abcd')
    expect(shorten(' \n a\tb \n ')).toBe('a b')
    expect(shorten('x'.repeat(200))).toBe('x'.repeat(200))
    expect(shorten('x'.repeat(201))).toBe(`${'x'.repeat(199)}…`)
  })
})

describe('ServiceError', () => {
  it('is an Error with a kind, and toInfo crosses to the renderer without details', () => {
    const e = new ServiceError('invalid_response', 'bad', { status: 200, details: { path: 'id' } })
    expect(e).toBeInstanceOf(Error)
    expect(String(e)).toBe('ServiceError: bad')
    expect(isServiceError(e)).toBe(true)
    expect(isServiceError(new Error('x'))).toBe(false)
    expect(e.toInfo()).toEqual({ kind: 'invalid_response', message: 'bad', status: 200 })
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      kind: 'invalid_response',
      message: 'bad',
      status: 200,
      details: { path: 'id' }
    })
  })
})
