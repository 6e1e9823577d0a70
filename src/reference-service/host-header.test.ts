import { describe, expect, it } from 'vitest'
import { isOwnHost } from './host-header'

const loopback = { host: '127.0.0.1', port: 4010 }

describe('isOwnHost', () => {
  it('a loopback server takes its own address, localhost and the loopback addresses, with its port', () => {
    for (const header of ['127.0.0.1:4010', 'localhost:4010', 'LOCALHOST:4010', '[::1]:4010'])
      expect(isOwnHost(header, loopback), header).toBe(true)
  })

  it('refuses any other name (DNS rebinding), another port, and what cannot be read', () => {
    for (const header of [
      'evil.example:4010',
      'localhost.evil.example:4010',
      '127.0.0.1.nip.io:4010',
      'attacker-rebind.test',
      '127.0.0.1:4011',
      '127.0.0.1',
      'localhost',
      '10.0.0.5:4010',
      '127.0.0.1:4010:4010',
      '127.0.0.1:abc',
      '[::1:4010',
      '[::1]x4010',
      // A port that reads as a number only loosely.
      'localhost:4010.0',
      'localhost: 4010',
      ' evil.example:4010',
      '',
      undefined
    ]) {
      expect(isOwnHost(header, loopback), String(header)).toBe(false)
    }
  })

  it('a server on one address takes that address only; on every address, any IP address but no other name', () => {
    expect(isOwnHost('192.168.1.5:80', { host: '192.168.1.5', port: 80 })).toBe(true)
    expect(isOwnHost('192.168.1.5', { host: '192.168.1.5', port: 80 })).toBe(true)
    expect(isOwnHost('localhost:80', { host: '192.168.1.5', port: 80 })).toBe(false)
    const everywhere = { host: '0.0.0.0', port: 4010 }
    for (const header of ['192.168.1.5:4010', 'localhost:4010', '[fe80::1]:4010'])
      expect(isOwnHost(header, everywhere), header).toBe(true)
    expect(isOwnHost('devbox.local:4010', everywhere)).toBe(false)
    expect(isOwnHost('[::1]:4010', { host: '::1', port: 4010 })).toBe(true)
    // Only a whole IP address: not a name that holds one (a rebinding service's name, such as nip.io's).
    for (const header of ['1.2.3.4.nip.io:4010', 'rebind.10.0.0.5:4010', 'evil]:4010'])
      expect(isOwnHost(header, everywhere), header).toBe(false)
  })

  it('reads the header and the address the server was given without regard to case or spaces around it', () => {
    expect(isOwnHost(' LocalHost:4010 ', loopback)).toBe(true)
    expect(isOwnHost('127.0.0.1:4010', { host: 'LocalHost', port: 4010 })).toBe(true)
  })

  it('on any loopback address, and on every IPv6 address, takes localhost and the loopback addresses', () => {
    for (const host of ['localhost', '127.0.0.2', '[::1]', '::1', '::', '[::]', '0.0.0.0']) {
      for (const header of ['localhost:4010', '127.0.0.1:4010', '[::1]:4010'])
        expect(isOwnHost(header, { host, port: 4010 }), `${header} on ${host}`).toBe(true)
      expect(isOwnHost('evil.example:4010', { host, port: 4010 }), host).toBe(false)
    }
    expect(isOwnHost('[fe80::1]:4010', { host: '::', port: 4010 })).toBe(true)
    expect(isOwnHost('[fe80::1]:4010', { host: '::1', port: 4010 })).toBe(false)
  })
})
