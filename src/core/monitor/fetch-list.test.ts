// How a poll asks for a project's list, against the reference service through the real client:
// the source's methods are offered one by one, as a source may have them or not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service/index'
import { isDigest } from '../client/digest'
import { createServiceClient, type ServiceClient } from '../client/index'
import { fetchList } from './fetch-list'
import type { TaskSource } from './types'

const KEY = 'fetch-list-key'
let service: ReferenceService
let client: ServiceClient
let projectId: string
const signal = new AbortController().signal

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 3, manualClock: true })
  client = createServiceClient({ baseUrl: service.url, apiKey: KEY, retry: { retries: 0 } })
  projectId = service.control.createProject({ name: 'Lists' }).id
  service.control.addTask(projectId, { name: 'Running', status: 'in_progress' })
  service.control.addTask(projectId, { name: 'Done', status: 'completed' })
})
afterAll(async () => {
  await client.close()
  await service.close()
})

type Method = 'listTasks' | 'listTasksIfChanged' | 'listTaskDigestsIfChanged'

/** The client offering only `methods` of the optional ones, noting each call and the ETag sent. */
function source(...methods: Method[]): TaskSource & { calls: string[] } {
  const calls: string[] = []
  const s: TaskSource & { calls: string[] } = {
    calls,
    listTasks: (id, sig) => (calls.push('listTasks'), client.listTasks(id, sig)),
    getStepsAndUsages: (id, sig) => client.getStepsAndUsages(id, sig)
  }
  if (methods.includes('listTasksIfChanged')) {
    s.listTasksIfChanged = (id, etag, sig) => (
      calls.push(`listTasksIfChanged ${etag}`),
      client.listTasksIfChanged(id, etag, sig)
    )
  }
  if (methods.includes('listTaskDigestsIfChanged')) {
    s.listTaskDigestsIfChanged = (id, etag, sig) => (
      calls.push(`listTaskDigestsIfChanged ${etag}`),
      client.listTaskDigestsIfChanged(id, etag, sig)
    )
  }
  return s
}

async function currentEtag(): Promise<string> {
  const first = await client.listTasksIfChanged(projectId, null)
  if (!first.changed || first.etag === null) throw new Error('the reference service sent no ETag')
  return first.etag
}

describe('fetchList', () => {
  it('asks for digests with the ETag of the list last taken when nobody needs the list itself', async () => {
    const etag = await currentEtag()
    const s = source('listTasksIfChanged', 'listTaskDigestsIfChanged')
    const fresh = await fetchList(s, projectId, { wantsFull: false, etag: null }, signal)
    expect(fresh).toMatchObject({ changed: true, full: null, etag })
    expect(fresh.changed && fresh.tasks.every(isDigest)).toBe(true)
    expect(fresh.changed && fresh.tasks.map((t) => t.name)).toEqual(['Running', 'Done'])
    expect(await fetchList(s, projectId, { wantsFull: false, etag }, signal)).toEqual({ changed: false })
    expect(s.calls).toEqual(['listTaskDigestsIfChanged null', `listTaskDigestsIfChanged ${etag}`])
  })

  it('asks for the full list, unconditionally, when it is kept: no 304 and the list to keep', async () => {
    const etag = await currentEtag()
    const s = source('listTasksIfChanged', 'listTaskDigestsIfChanged')
    const answer = await fetchList(s, projectId, { wantsFull: true, etag }, signal)
    expect(s.calls).toEqual(['listTasksIfChanged null'])
    expect(answer).toMatchObject({ changed: true, etag })
    if (!answer.changed) return
    expect(answer.full).toBe(answer.tasks)
    expect(answer.tasks.some(isDigest)).toBe(false)
  })

  it('a source without digests asks conditionally for the full list, kept only when wanted', async () => {
    const etag = await currentEtag()
    const s = source('listTasksIfChanged')
    expect(await fetchList(s, projectId, { wantsFull: false, etag }, signal)).toEqual({ changed: false })
    const fresh = await fetchList(s, projectId, { wantsFull: false, etag: null }, signal)
    expect(fresh).toMatchObject({ changed: true, full: null, etag })
    expect(s.calls).toEqual([`listTasksIfChanged ${etag}`, 'listTasksIfChanged null'])
  })

  it('a source of plain lists only is asked for the list every time, which is kept and has no ETag', async () => {
    const s = source()
    for (const wantsFull of [false, true]) {
      const answer = await fetchList(s, projectId, { wantsFull, etag: 'W/"old"' }, signal)
      expect(answer).toMatchObject({ changed: true, etag: null })
      expect(answer.changed && answer.full).toBe(answer.changed && answer.tasks)
    }
    expect(s.calls).toEqual(['listTasks', 'listTasks'])
  })

  it('a source of digests only still gives the full list where it is kept', async () => {
    const s = source('listTaskDigestsIfChanged')
    const answer = await fetchList(s, projectId, { wantsFull: true, etag: null }, signal)
    expect(s.calls).toEqual(['listTasks'])
    expect(answer.changed && answer.full?.map((t) => t.name)).toEqual(['Running', 'Done'])
  })
})
