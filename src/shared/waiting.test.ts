import { describe, expect, it } from 'vitest'
import { agentPlace, askedLine, MAX_ASKED_LENGTH, needsYouTitle, waitingPhrase } from './waiting'

describe('how a task waiting for you is said', () => {
  it('one phrase per kind of answer, the task named', () => {
    expect(waitingPhrase('plan_approval', 'Add dark mode')).toBe("approve the plan for 'Add dark mode'")
    expect(waitingPhrase('question', 'Add dark mode')).toBe("answer a question on 'Add dark mode'")
    expect(waitingPhrase('permission', 'Add dark mode')).toBe("give a permission on 'Add dark mode'")
    expect(needsYouTitle('Jules', 'plan_approval', 'Add\n dark mode')).toBe(
      "Jules needs you: approve the plan for 'Add dark mode'"
    )
    expect(agentPlace('Jules', ' Personal\u001b[2J ')).toBe('Jules · Personal\\u001b[2J')
  })

  it('what is asked: one line, trimmed, controls and bidi written out, cut at a code point; nothing asked is null', () => {
    expect(askedLine(null)).toBeNull()
    expect(askedLine(' \n\t ')).toBeNull()
    expect(askedLine('  Which\n\ncolour?\t')).toBe('Which colour?')
    expect(askedLine('\u001b[31mred\u001b[0m \u202eevil')).toBe('\\u001b[31mred\\u001b[0m \\u202eevil')
    const long = askedLine('😀'.repeat(MAX_ASKED_LENGTH + 5))!
    expect(Array.from(long)).toHaveLength(MAX_ASKED_LENGTH)
    expect(long.endsWith('😀…')).toBe(true)
    expect(askedLine('x'.repeat(MAX_ASKED_LENGTH))).toBe('x'.repeat(MAX_ASKED_LENGTH))
  })
})
