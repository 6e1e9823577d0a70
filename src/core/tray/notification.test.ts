import { describe, expect, it } from 'vitest'
import { toDesktopNotification } from './notification'

describe('toDesktopNotification', () => {
  it('opens the task on click when the notification names one', () => {
    const d = toDesktopNotification(
      { title: 'Task completed', body: 'Add login — Shop', projectId: 'p', taskId: 't', kind: 'task' },
      { sound: true }
    )
    expect(d.click).toEqual({ type: 'task', projectId: 'p', taskId: 't' })
    expect(d.options).toEqual({ title: 'Task completed', body: 'Add login — Shop', silent: false })
  })

  it('opens the window when there is no task, and stays silent when sound is off', () => {
    const d = toDesktopNotification({ title: 'Budget crossed', body: 'Shop is over $5.00', projectId: 'p', kind: 'budget' }, { sound: false })
    expect(d.click).toEqual({ type: 'window' })
    expect(d.options.silent).toBe(true)
    expect(toDesktopNotification({ title: '3 tasks changed', body: '', kind: 'summary' }, { sound: true }).click).toEqual({ type: 'window' })
  })

  it('keeps text short and the title on one line', () => {
    const d = toDesktopNotification({ title: 'a\nb', body: 'y'.repeat(1000), kind: 'task' }, { sound: true })
    expect(d.options.title).toBe('a b')
    expect(d.options.body).toHaveLength(400)
    expect(d.options.body.endsWith('…')).toBe(true)
    expect(toDesktopNotification({ title: '  ', body: '', kind: 'away' }, { sound: true }).options.title).toBe('Agent Tray')
  })
})
