// GitHub's paging and conditional lists: how a Link header is read, how far pages are followed, and that an ETag is
// kept only for a list read whole and only when it can be sent back as is.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LIST_TASKS, LIST_TASKS_LINK } from '../../../reference-service/github/docs-examples'
import { failure } from '../../client/test-failure'
import { json, startTestServer, type TestServer } from '../test-server'
import { createGithubClient, type GithubClient, MAX_PAGES, PAGE_SIZE, parseLink } from './client'

describe('parseLink', () => {
  it("reads the documentation's own example", () => {
    expect(parseLink(LIST_TASKS_LINK)).toEqual({
      next: 'https://api.github.com/agents/tasks?page=2&per_page=30',
      first: 'https://api.github.com/agents/tasks?page=1&per_page=30'
    })
  })

  it('nothing from no header or an empty one', () => {
    expect(parseLink(undefined)).toEqual({})
    expect(parseLink('')).toEqual({})
  })

  it('rel unquoted, in any case, with several names, among other parameters; a comma inside a URL is kept', () => {
    expect(
      parseLink('<https://x/a?q=1,2>; title="t"; REL=Next,<https://x/b>;rel="last  prev" ; type="x", <https://x/c>')
    ).toEqual({ next: 'https://x/a?q=1,2', last: 'https://x/b', prev: 'https://x/b' })
  })

  it('the first link of a name wins; parts that are not links are skipped', () => {
    expect(parseLink('garbage; rel="next", <https://x/1>; rel="next", <https://x/2>; rel="next"')).toEqual({
      next: 'https://x/1'
    })
    expect(parseLink('<https://x/1> rel="next"')).toEqual({})
    expect(parseLink('<https://x/1>; rel=""')).toEqual({})
    expect(parseLink(' <https://x/1> ; rel = "next" ')).toEqual({ next: 'https://x/1' })
    expect(parseLink('<https://x/1>; rel=" first  last "')).toEqual({ first: 'https://x/1', last: 'https://x/1' })
    expect(parseLink('x <https://x/1>; rel="next"')).toEqual({})
  })
})

const TOKEN = 'github_pat_11TEST0paging0token'
const TASK = LIST_TASKS.tasks[0] as Record<string, unknown>

let server: TestServer
let client: GithubClient
let clock: number

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  clock = 1_700_000_000_000
  server.received.length = 0
  client = createGithubClient({ token: TOKEN, account: 'paging', baseUrl: server.url, now: () => clock })
})
afterEach(() => client.close())

const page = (id: string) => ({ tasks: [{ ...TASK, id }] })

/** Every page links to the next, forever. */
function endlessPages(): void {
  server.handle((req, res) => {
    const n = Number(new URL(req.url, server.url).searchParams.get('page') ?? '1')
    json(res, 200, page(`t${n}`), { link: `<${server.url}/agents/tasks?page=${n + 1}>; rel="next"`, etag: '"all"' })
  })
}

describe('listTasks', () => {
  it(`asks ${PAGE_SIZE} a page and follows at most ${MAX_PAGES} pages`, async () => {
    endlessPages()
    const list = await client.listTasks()
    expect(PAGE_SIZE).toBe(100)
    expect(MAX_PAGES).toBe(10)
    expect(server.received[0]?.url).toBe('/agents/tasks?per_page=100')
    expect(server.received).toHaveLength(MAX_PAGES)
    expect(list.changed && list.tasks.map((t) => t.id)).toEqual(
      Array.from({ length: MAX_PAGES }, (_, i) => `t${i + 1}`)
    )
  })

  it('sends If-None-Match on the first page only, and keeps the ETag once every page was read', async () => {
    endlessPages()
    await client.listTasks()
    expect(server.received.map((r) => r.headers['if-none-match'])).toEqual(Array(MAX_PAGES).fill(undefined))
    expect(client.pacer.etag('/agents/tasks')).toBe('"all"')
    server.received.length = 0
    await client.listTasks()
    expect(server.received[0]?.headers['if-none-match']).toBe('"all"')
    expect(server.received.slice(1).every((r) => r.headers['if-none-match'] === undefined)).toBe(true)
  })

  it('a list cut short by an error keeps no ETag, so the next poll reads it all again', async () => {
    server.handle((req, res) => {
      if (req.url.includes('page=2')) return json(res, 500, { message: 'boom' })
      json(res, 200, page('a'), { etag: '"v1"', link: `<${server.url}/agents/tasks?page=2>; rel="next"` })
    })
    expect((await failure(client.listTasks())).kind).toBe('server')
    expect(client.pacer.etag('/agents/tasks')).toBeNull()
  })

  it('a 200 without an ETag forgets the one kept', async () => {
    server.handle((_req, res) => json(res, 200, page('a'), { etag: '"v1"' }))
    await client.listTasks()
    server.handle((_req, res) => json(res, 200, page('a')))
    await client.listTasks()
    expect(client.pacer.etag('/agents/tasks')).toBeNull()
  })

  it('an ETag that cannot be sent back as is (a tab, a character past ASCII, over 1,024 characters) is not kept', async () => {
    // Node refuses to send other control characters, and HTTP trims spaces at a value's edges.
    for (const etag of ['"a\tb"', '"caf\u00e9"', `"${'a'.repeat(1023)}"`]) {
      server.handle((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', etag })
        res.end(JSON.stringify(page('a')))
      })
      await client.listTasks().catch(() => undefined)
      expect(client.pacer.etag('/agents/tasks'), JSON.stringify(etag)).toBeNull()
    }
    for (const etag of ['"x"', 'W/"a b"', `"${'a'.repeat(1022)}"`, '!']) {
      server.handle((_req, res) => json(res, 200, page('a'), { etag }))
      await client.listTasks()
      expect(client.pacer.etag('/agents/tasks'), etag).toBe(etag)
    }
  })

  it('each page is paced on its own key: a poll interval on the first page does not hold the second', async () => {
    server.handle((req, res) => {
      if (req.url.includes('page=2')) return json(res, 200, page('b'))
      json(res, 200, page('a'), {
        'x-poll-interval': '60',
        link: `<${server.url}/agents/tasks?page=2>; rel="next"`
      })
    })
    const list = await client.listTasks()
    expect(list.changed && list.tasks.map((t) => t.id)).toEqual(['a', 'b'])
    expect(client.pacer.waitMs('/agents/tasks')).toBe(60_000)
    expect(client.pacer.waitMs('/agents/tasks#2')).toBe(0)
  })

  it("a repository's list has its own ETag and floor", async () => {
    server.handle((_req, res) => json(res, 200, page('a'), { etag: '"r"', 'x-poll-interval': '30' }))
    await client.listTasks({ repository: { owner: 'o', repo: 'r' } })
    expect(client.pacer.etag('/agents/repos/o/r/tasks')).toBe('"r"')
    expect(client.pacer.etag('/agents/tasks')).toBeNull()
    expect(client.pacer.waitMs('/agents/tasks')).toBe(0)
  })
})
