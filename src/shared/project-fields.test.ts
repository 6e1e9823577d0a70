import { describe, expect, it } from 'vitest'
import { isEmail, isReturnUrl, MAX_EMAIL_LENGTH } from './project-fields'

describe('the project fields a person types', () => {
  it('takes an email of something@domain.tld, without spaces, up to the longest an address may be', () => {
    expect(isEmail('ana@example.com')).toBe(true)
    for (const bad of [
      'ana',
      'ana@example',
      '@example.com',
      'ana@.com',
      'an a@example.com',
      'ana@exa mple.com',
      'ana@@example.com',
      'ana@example.com ',
      ' ana@example.com'
    ]) {
      expect(isEmail(bad), bad).toBe(false)
    }
    const local = 'a'.repeat(MAX_EMAIL_LENGTH - '@example.com'.length)
    expect(isEmail(`${local}@example.com`)).toBe(true)
    expect(isEmail(`a${local}@example.com`)).toBe(false)
  })

  it("takes any absolute URL to send the user back to, an app's own link too, but not the script and file schemes", () => {
    expect(isReturnUrl('https://shop.example/done?x=1')).toBe(true)
    expect(isReturnUrl('agent-tray://projects/p1')).toBe(true)
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<b>',
      'vbscript:x',
      'file:///etc/passwd',
      'blob:https://a.example/1',
      '/relative',
      'not a url'
    ]) {
      expect(isReturnUrl(bad), bad).toBe(false)
    }
  })

  it('refuses a URL with spaces or control characters, or longer than 2048', () => {
    expect(isReturnUrl('https://a.example/a b')).toBe(false)
    expect(isReturnUrl('https://a.example/\u0000')).toBe(false)
    expect(isReturnUrl('https://a.example/\u007f')).toBe(false)
    expect(isReturnUrl('https://a.example/\u001f')).toBe(false)
    const base = 'https://a.example/'
    expect(isReturnUrl(base + 'a'.repeat(2048 - base.length))).toBe(true)
    expect(isReturnUrl(base + 'a'.repeat(2049 - base.length))).toBe(false)
  })
})
