import { describe, expect, it } from 'vitest'
import { startupFailureBox } from './startup-failure'

describe('startupFailureBox', () => {
  it("says why in the error's first line and names the log file", () => {
    const box = startupFailureBox(
      new Error('config.json is a directory\n    at open (store.ts:1)'),
      '/home/u/.config/agent-tray/logs/main.log'
    )
    expect(box.title).toBe('Agent Tray could not start')
    expect(box.content).toBe(
      'config.json is a directory\n\nThe log has the details: /home/u/.config/agent-tray/logs/main.log'
    )
  })

  it('writes out control characters, so an error quoting a file name cannot act on a terminal or the box', () => {
    expect(startupFailureBox(new Error('bad \u001b[31mname'), '/l').content).toMatch(/^bad \\u001b\[31mname/)
  })
})
