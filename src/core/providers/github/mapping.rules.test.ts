// The edges of the GitHub mapping: a repository's name from the task's page, a task without a repository, a session's
// title when it has no name.
import { describe, expect, it } from 'vitest'
import { readOne } from '../records'
import { repositoryName, sessionStep, toProviderTask } from './mapping'
import { sessionSchema, taskSchema } from './schemas'

describe('GitHub mapping', () => {
  it('a page of exactly two segments names its repository; one segment does not', () => {
    expect(repositoryName('https://github.com/octo%20cat/hello')).toBe('octo cat/hello')
    expect(repositoryName('https://github.com/octocat')).toBeNull()
    expect(repositoryName('not a url')).toBeNull()
  })

  it('a task without a repository has no project', () => {
    const { rawSessions: _, ...task } = readOne({ id: 't', state: 'queued' }, taskSchema, 'a task')
    expect(toProviderTask(task).project).toBeNull()
  })

  it('a session\'s title: its name, else its prompt, else "Session"', () => {
    const step = (raw: object) => sessionStep(readOne({ id: 's', ...raw }, sessionSchema, 'a session')).title
    expect(step({ name: 'Named', prompt: 'Asked' })).toBe('Named')
    expect(step({ prompt: 'Asked' })).toBe('Asked')
    expect(step({})).toBe('Session')
  })
})
