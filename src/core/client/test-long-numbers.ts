// For number-text.test.ts: parses bodies near the 8 MiB response cap full of very long numeric
// strings, in a process of its own, so the test can stop it after a deadline if parsing stalls
// (a stalled parse cannot be interrupted in the test's own thread). Prints what was read as JSON.
import { DEFAULT_MAX_RESPONSE_BYTES } from './client'
import { decodeJson, type InvalidRecordIssue, parseStepsAndUsages, parseTasks } from './parse'

/** A run of digits the old pattern backtracked over, ended by a letter so it never matched. */
const digits = (n: number): string => '7'.repeat(n) + 'x'

const tasks = Array.from({ length: 100 }, (_, i) => ({ id: `t${i}`, status: 'completed', total_price: digits(80_000) }))
const big = { id: 'big', status: 'completed', total_price: digits(DEFAULT_MAX_RESPONSE_BYTES - 8_100_000 - 200) }
const taskBody = JSON.stringify([...tasks, big])
const parsedTasks = parseTasks(decodeJson(taskBody, 'a list of tasks'))

const usage = { usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } }
const usages = Array.from({ length: 100 }, (_, i) => ({
  ...usage,
  id: `u${i}`,
  final_price: digits(80_000),
  price: { input_price: digits(1_000) }
}))
const usageBody = JSON.stringify({ steps: [], usages })
const issues: InvalidRecordIssue[] = []
const parsedUsages = parseStepsAndUsages(decodeJson(usageBody, 'steps and usages'), (i) => issues.push(i))

process.stdout.write(
  JSON.stringify({
    taskBodyBytes: taskBody.length,
    tasks: parsedTasks.length,
    pricesKnown: parsedTasks.filter((t) => t.total_price !== null).length,
    usages: parsedUsages.usages.length,
    issues: issues.length,
    firstIssue: issues[0]
  })
)
