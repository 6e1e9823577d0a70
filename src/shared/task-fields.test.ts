import { describe, expect, it } from 'vitest'
import {
  MAX_TASK_NAME_LENGTH,
  MAX_TASK_REQUIREMENT_LENGTH,
  taskNameProblem,
  taskRequirementProblem
} from './task-fields'

describe('a new task’s name', () => {
  it('is one non-blank line of at most 200 characters', () => {
    expect(taskNameProblem('Add search')).toBeNull()
    expect(taskNameProblem('x'.repeat(MAX_TASK_NAME_LENGTH))).toBeNull()
    expect(taskNameProblem('')).toBe('must not be empty')
    expect(taskNameProblem(' \t ')).toBe('must not be empty')
    expect(taskNameProblem('x'.repeat(MAX_TASK_NAME_LENGTH + 1))).toBe('must be at most 200 characters')
    expect(taskNameProblem('two\nlines')).toBe('must be a single line without control characters')
    expect(taskNameProblem('bell\u0007')).toBe('must be a single line without control characters')
  })
})

describe('a new task’s requirement', () => {
  it('is non-blank text of at most 100,000 characters; lines and tabs are fine, other control characters are not', () => {
    expect(taskRequirementProblem('A search box\non the home page,\tplease\r\n')).toBeNull()
    expect(taskRequirementProblem('x'.repeat(MAX_TASK_REQUIREMENT_LENGTH))).toBeNull()
    expect(taskRequirementProblem('\n  \n')).toBe('must not be empty')
    expect(taskRequirementProblem('x'.repeat(MAX_TASK_REQUIREMENT_LENGTH + 1))).toBe(
      'must be at most 100000 characters'
    )
    expect(taskRequirementProblem('escape\u001b[1m')).toBe('must not contain control characters')
  })
})
