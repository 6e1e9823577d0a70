import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { isTrustedFrame, isTrustedSender } from './sender'

const rendererFile = '/opt/Agent Tray/resources/app.asar/out/renderer/index.html'
const prod = { rendererFile }
const dev = { rendererFile, devServerUrl: 'http://localhost:5173/' }
const ours = pathToFileURL(rendererFile).href

describe('isTrustedSender', () => {
  it('accepts our own page in production, with or without a fragment or query', () => {
    expect(ours).toContain('Agent%20Tray')
    expect(isTrustedSender(ours, prod)).toBe(true)
    expect(isTrustedSender(`${ours}#/tasks/1`, prod)).toBe(true)
    expect(isTrustedSender(`${ours}?x=1`, prod)).toBe(true)
    expect(isTrustedSender('file:///opt/Agent Tray/resources/app.asar/out/renderer/index.html', prod)).toBe(true)
  })

  it('refuses another file, another host, and anything that is not file:// in production', () => {
    expect(isTrustedSender('file:///opt/Agent%20Tray/resources/app.asar/out/renderer/other.html', prod)).toBe(false)
    expect(isTrustedSender('file:///tmp/index.html', prod)).toBe(false)
    expect(isTrustedSender('file://evil.example/opt/Agent%20Tray/resources/app.asar/out/renderer/index.html', prod)).toBe(false)
    expect(isTrustedSender('about:blank', prod)).toBe(false)
    expect(isTrustedSender('data:text/html,hi', prod)).toBe(false)
    expect(isTrustedSender('http://localhost:5173/', prod)).toBe(false)
    expect(isTrustedSender('', prod)).toBe(false)
    expect(isTrustedSender('not a url', prod)).toBe(false)
  })

  it('accepts only the exact dev-server origin in development', () => {
    expect(isTrustedSender('http://localhost:5173/', dev)).toBe(true)
    expect(isTrustedSender('http://localhost:5173/index.html#x', dev)).toBe(true)
    expect(isTrustedSender('http://localhost:5174/', dev)).toBe(false)
    expect(isTrustedSender('https://localhost:5173/', dev)).toBe(false)
    expect(isTrustedSender('http://127.0.0.1:5173/', dev)).toBe(false)
    expect(isTrustedSender('http://localhost.evil.example:5173/', dev)).toBe(false)
    expect(isTrustedSender(ours, dev)).toBe(false)
    expect(isTrustedSender('about:blank', dev)).toBe(false)
  })

  it('refuses everything when the dev-server URL is not http(s)', () => {
    expect(isTrustedSender('file:///x', { rendererFile, devServerUrl: 'file:///x' })).toBe(false)
  })
})

describe('isTrustedFrame', () => {
  const main = { url: ours, processId: 4, routingId: 1 }

  it('accepts the main frame of our window showing our page', () => {
    expect(isTrustedFrame({ ...main }, [main], prod)).toBe(true)
  })

  it('refuses a frame of another window or a sub-frame, even on our URL', () => {
    expect(isTrustedFrame({ ...main, routingId: 2 }, [main], prod)).toBe(false)
    expect(isTrustedFrame({ ...main, processId: 5 }, [main], prod)).toBe(false)
    expect(isTrustedFrame(main, [], prod)).toBe(false)
    expect(isTrustedFrame(main, [null], prod)).toBe(false)
  })

  it('refuses our frame once it shows another page, and a destroyed frame', () => {
    expect(isTrustedFrame({ ...main, url: 'https://evil.example/' }, [main], prod)).toBe(false)
    expect(isTrustedFrame(null, [main], prod)).toBe(false)
  })
})
