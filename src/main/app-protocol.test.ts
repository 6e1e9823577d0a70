import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../shared/csp'
import {
  APP_INDEX_URL,
  APP_ORIGIN,
  APP_SCHEME_PRIVILEGES,
  createAppProtocolHandler,
  resolveAppPath,
  resolveAppUrl
} from './app-protocol'

let base: string
let root: string

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'agent-tray-protocol-'))
  root = join(base, 'renderer')
  await mkdir(join(root, 'assets'), { recursive: true })
  await writeFile(join(root, 'index.html'), '<!doctype html><title>ours</title>')
  await writeFile(join(root, 'assets', 'index-abc.js'), 'console.log(1)')
  await writeFile(join(root, 'assets', 'index-abc.css'), 'body{}')
  await writeFile(join(root, 'assets', 'a b.svg'), '<svg/>')
  await writeFile(join(base, 'secret.html'), 'not for the page')
  await writeFile(join(root, 'notes.exe'), 'MZ')
})

afterAll(async () => {
  await rm(base, { recursive: true, force: true })
})

describe('APP_SCHEME_PRIVILEGES', () => {
  it('is standard, secure and fetch-capable, and never bypasses the CSP', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true }
    })
    expect(APP_ORIGIN).toBe('app://agent-tray')
    expect(APP_INDEX_URL).toBe('app://agent-tray/index.html')
  })
})

describe('resolveAppPath', () => {
  it('maps paths under the root, / to index.html, decoding percent-escapes', () => {
    expect(resolveAppPath('/', root)).toEqual({
      ok: true,
      file: join(root, 'index.html'),
      contentType: 'text/html; charset=utf-8'
    })
    expect(resolveAppPath('/assets/index-abc.js', root)).toMatchObject({
      ok: true,
      file: join(root, 'assets', 'index-abc.js'),
      contentType: 'text/javascript; charset=utf-8'
    })
    expect(resolveAppPath('/assets/a%20b.svg', root)).toMatchObject({
      ok: true,
      file: join(root, 'assets', 'a b.svg'),
      contentType: 'image/svg+xml'
    })
    expect(resolveAppPath('/assets/x.CSS', root)).toMatchObject({ ok: true, contentType: 'text/css; charset=utf-8' })
  })

  it('refuses traversal in every spelling', () => {
    for (const bad of [
      '/../secret.html',
      '/assets/../../secret.html',
      '/%2e%2e/secret.html',
      '/%2E%2E/secret.html',
      '/.%2e/secret.html',
      '/..%2fsecret.html',
      '/..%2Fsecret.html',
      '/..%5csecret.html',
      '/..\\secret.html',
      '/assets\\..\\..\\secret.html',
      '/./index.html',
      '/%2e/index.html',
      '//etc/passwd.html',
      '/%2fetc%2fpasswd.html',
      '/C:/Windows/win.ini.txt',
      '/C%3a%5cWindows%5cwin.txt',
      '/index.html%00.js',
      '/%E0%A4%A.html',
      'index.html',
      ''
    ]) {
      expect(resolveAppPath(bad, root).ok, bad).toBe(false)
    }
  })

  it('refuses file types the build does not make', () => {
    expect(resolveAppPath('/notes.exe', root).ok).toBe(false)
    expect(resolveAppPath('/assets', root).ok).toBe(false)
    expect(resolveAppPath('/index.js.map', root).ok).toBe(false)
  })
})

describe('resolveAppUrl', () => {
  it('serves only our origin, ignoring query and fragment', () => {
    expect(resolveAppUrl('app://agent-tray/index.html?x=1#/tasks', root)).toMatchObject({
      ok: true,
      file: join(root, 'index.html')
    })
    expect(resolveAppUrl('app://agent-tray/', root)).toMatchObject({ ok: true, file: join(root, 'index.html') })
    for (const bad of [
      'app://other/index.html',
      'app://agent-tray:8080/index.html',
      'app://u:p@agent-tray/index.html',
      'file:///index.html',
      'https://agent-tray/index.html',
      'nonsense'
    ]) {
      expect(resolveAppUrl(bad, root).ok, bad).toBe(false)
    }
  })

  it('normalised dot segments stay inside the root', () => {
    // The URL parser folds /a/../../x and %2e%2e into /x: the result is under root, never above it.
    const r = resolveAppUrl('app://agent-tray/assets/%2e%2e/%2e%2e/secret.html', root)
    expect(r).toMatchObject({ ok: true, file: join(root, 'secret.html') })
    expect(resolveAppUrl('app://agent-tray/..%2fsecret.html', root).ok).toBe(false)
  })
})

describe('createAppProtocolHandler', () => {
  const handler = () => createAppProtocolHandler({ root })

  it('serves our files with their type, the CSP and nosniff', async () => {
    const res = await handler()(new Request(APP_INDEX_URL))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await res.text()).toContain('<title>ours</title>')
    const js = await handler()(new Request('app://agent-tray/assets/index-abc.js'))
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await js.text()).toBe('console.log(1)')
  })

  it('404s a missing file, a refused path or another origin, still with the CSP', async () => {
    const logs: string[] = []
    const h = createAppProtocolHandler({ root, log: (m) => logs.push(m) })
    for (const url of [
      'app://agent-tray/missing.html',
      'app://agent-tray/..%2fsecret.html',
      'app://agent-tray/notes.exe',
      'app://elsewhere/index.html'
    ]) {
      const res = await h(new Request(url))
      expect(res.status, url).toBe(404)
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
      expect(await res.text()).not.toContain('not for the page')
    }
    expect(logs.join('\n')).not.toContain('secret')
  })

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await handler()(new Request(APP_INDEX_URL, { method: 'HEAD' }))
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const post = await handler()(new Request(APP_INDEX_URL, { method: 'POST', body: 'x' }))
    expect(post.status).toBe(405)
  })

  it('uses the policy it is given', async () => {
    const res = await createAppProtocolHandler({ root, policy: "default-src 'none'" })(new Request(APP_INDEX_URL))
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'")
  })
})
