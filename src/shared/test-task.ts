// A service Task for tests: every field the service sends, with plain defaults, so a test names
// only what it is about.
import type { Task } from './service'

export function testTask(id: string, over: Partial<Task> = {}): Task {
  return {
    id,
    project_id: 'p1',
    name: `Task ${id}`,
    description: '',
    status: 'completed',
    text_requirement: '',
    files_requirement: [],
    created_at: '2026-11-27T09:00:00Z',
    updated_at: '2026-11-27T10:00:00Z',
    steps: [],
    branch: '',
    total_price: 1,
    ...over
  }
}
