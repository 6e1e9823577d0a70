import { describe, expect, it } from 'vitest'
import { isTrustedFrame, isTrustedSender } from './sender'

const prod = {}
const dev = { devServerUrl: 'http://localhost:5173/' }
const ours = 'app://agent-tray/index.html'

describe('isTrustedSender', () => {
  it('accepts our own page in production, with or without a fragment or query', () => {
    expect(isTrustedSender(ours, prod)).toBe(true)
    expect(isTrustedSender(`${ours}#/tasks/1`, prod)).toBe(true)
    expect(isTrustedSender(`${ours}?x=1`, prod)).toBe(true)
    expect(isTrustedSender('app://agent-tray/', prod)).toBe(true)
    expect(isTrustedSender('app://agent-tray/#/settings', prod)).toBe(true)
  })

  it('refuses another path, another host, file:// and anything else in production', () => {
    expect(isTrustedSender('app://agent-tray/other.html', prod)).toBe(false)
    expect(isTrustedSender('app://agent-tray/assets/index.js', prod)).toBe(false)
    expect(isTrustedSender('app://evil/index.html', prod)).toBe(false)
    expect(isTrustedSender('app://agent-tray.evil/index.html', prod)).toBe(false)
    expect(isTrustedSender('app://agent-tray:8080/index.html', prod)).toBe(false)
    expect(isTrustedSender('app://user:pw@agent-tray/index.html', prod)).toBe(false)
    expect(isTrustedSender('apps://agent-tray/index.html', prod)).toBe(false)
    expect(isTrustedSender('file:///opt/Agent%20Tray/resources/app.asar/out/renderer/index.html', prod)).toBe(false)
    expect(isTrustedSender('https://agent-tray/index.html', prod)).toBe(false)
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
    expect(isTrustedSender('file:///x', { devServerUrl: 'file:///x' })).toBe(false)
    expect(isTrustedSender(ours, { devServerUrl: 'file:///x' })).toBe(false)
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
