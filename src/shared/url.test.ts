import { describe, expect, it } from 'vitest'
import { isSafeExternalUrl } from './url'

describe('isSafeExternalUrl', () => {
  it.each([
    'https://example.com',
    'http://example.com/path?q=1#frag',
    'https://my-app.apps.example.com/',
    'http://127.0.0.1:8080/x',
    'HTTPS://EXAMPLE.COM/'
  ])('accepts %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(true)
  })

  it.each([
    '',
    'example.com',
    '/relative/path',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'ftp://example.com',
    'smb://host/share',
    'mailto:a@b.c',
    'chrome://settings',
    'https://user:pw@example.com/',
    'https://user@example.com/',
    ' https://example.com',
    'https://exa\nmple.com',
    'https://example.com/\u0000',
    'https://example.com/\u001f',
    'https://example.com/\u007f',
    'https://example.com/a\u00a0b',
    'https://:pw@example.com/',
    'http://',
    `https://example.com/${'a'.repeat(2100)}`
  ])('refuses %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false)
  })

  it('takes a URL of up to 2048 characters', () => {
    const base = 'https://example.com/'
    expect(isSafeExternalUrl(base + 'a'.repeat(2048 - base.length))).toBe(true)
    expect(isSafeExternalUrl(base + 'a'.repeat(2049 - base.length))).toBe(false)
  })

  it('refuses non-strings that slip past types', () => {
    expect(isSafeExternalUrl(undefined as unknown as string)).toBe(false)
    expect(isSafeExternalUrl(42 as unknown as string)).toBe(false)
  })
})
