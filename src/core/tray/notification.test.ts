import { describe, expect, it } from 'vitest'
import { bodyIsMarkup, toDesktopNotification } from './notification'

describe('toDesktopNotification', () => {
  it('opens the task on click when the notification names one', () => {
    const d = toDesktopNotification(
      { title: 'Task completed', body: 'Add login — Shop', projectId: 'p', taskId: 't', kind: 'task' },
      { sound: true },
      'darwin'
    )
    expect(d.click).toEqual({ type: 'task', projectId: 'p', taskId: 't' })
    expect(d.options).toEqual({ title: 'Task completed', body: 'Add login — Shop', silent: false })
  })

  it("opens another service's task, which may have no project, on its account", () => {
    const waiting = {
      title: "Jules needs you: approve the plan for 'Add dark mode'",
      body: 'Personal: Plan',
      kind: 'waiting' as const,
      connectionId: 'j',
      projectId: '',
      taskId: 't',
      service: 'jules'
    }
    expect(toDesktopNotification(waiting, { sound: true }, 'linux').click).toEqual({
      type: 'task',
      projectId: '',
      taskId: 't',
      connectionId: 'j'
    })
    const { connectionId: _, ...noAccount } = waiting
    expect(toDesktopNotification(noAccount, { sound: true }, 'linux').click).toEqual({ type: 'window' })
  })

  it('opens the window when there is no task, and stays silent when sound is off', () => {
    const d = toDesktopNotification(
      { title: 'Budget crossed', body: 'Shop is over $5.00', projectId: 'p', kind: 'budget' },
      { sound: false },
      'linux'
    )
    expect(d.click).toEqual({ type: 'window' })
    expect(d.options.silent).toBe(true)
    expect(
      toDesktopNotification({ title: '3 tasks changed', body: '', kind: 'summary' }, { sound: true }, 'linux').click
    ).toEqual({ type: 'window' })
  })

  it('keeps text short and the title on one line', () => {
    const d = toDesktopNotification({ title: 'a\nb', body: 'y'.repeat(1000), kind: 'task' }, { sound: true }, 'linux')
    expect(d.options.title).toBe('a b')
    expect(d.options.body).toHaveLength(400)
    expect(d.options.body.endsWith('…')).toBe(true)
    expect(toDesktopNotification({ title: '  ', body: '', kind: 'away' }, { sound: true }, 'win32').options.title).toBe(
      'Agent Tray'
    )
  })

  describe('a hostile task or project name', () => {
    const hostile = [
      ['a title change (OSC 0)', '\u001b]0;pwned\u0007', '\\u001b]0;pwned\\u0007'],
      ['a clipboard write (OSC 52)', '\u001b]52;c;Y3VybCBldmlsCg==\u0007', '\\u001b]52;c;Y3VybCBldmlsCg==\\u0007'],
      [
        'a link (OSC 8)',
        '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\',
        '\\u001b]8;;https://evil.example\\u001b\\click\\u001b]8;;\\u001b\\'
      ],
      ['a screen clear (CSI 2J)', '\u001b[2J\u001b[H', '\\u001b[2J\\u001b[H'],
      ['a C1 CSI', '\u009b31m', '\\u009b31m'],
      ['a bidi override', 'exe.\u202etxt', 'exe.\\u202etxt']
    ] as const

    it.each(hostile)('%s is written out in the title and the body', (_what, raw, shown) => {
      const d = toDesktopNotification(
        { title: `Task completed ${raw}`, body: `Task '${raw}' completed`, kind: 'task' },
        { sound: true },
        'darwin'
      )
      expect(d.options.title).toBe(`Task completed ${shown}`)
      expect(d.options.body).toBe(`Task '${shown}' completed`)
      for (const text of [d.options.title, d.options.body]) {
        expect(
          [...text].every(
            (c) => c.charCodeAt(0) >= 0x20 && !(c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f) && c !== '\u202e'
          )
        ).toBe(true)
      }
    })

    it('markup in the body is escaped on Linux, where notification servers render it, and only there', () => {
      const n = {
        title: "Task failed in project 'A & <b>B</b>'",
        body: 'Task \'<a href="https://evil.example">x</a> & <img src=x>\' failed',
        kind: 'task' as const
      }
      const linux = toDesktopNotification(n, { sound: true }, 'linux')
      expect(linux.options.body).toBe(
        'Task \'&lt;a href="https://evil.example"&gt;x&lt;/a&gt; &amp; &lt;img src=x&gt;\' failed'
      )
      // The summary is plain text by the specification: shown as it is.
      expect(linux.options.title).toBe(n.title)
      for (const platform of ['darwin', 'win32']) {
        expect(toDesktopNotification(n, { sound: true }, platform).options.body).toBe(n.body)
      }
      expect(bodyIsMarkup('linux')).toBe(true)
      expect(bodyIsMarkup('darwin')).toBe(false)
    })
  })
})
