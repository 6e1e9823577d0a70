// A process that forwards through the outbox and is killed by the test (outbox.kill.test.ts):
// argv: the outbox file, the receiver's URL, the event's task id. It enqueues the event (skipped
// when already delivered) and keeps running until it has nothing pending.
import { systemClock } from '../util/clock'
import { createOutbox } from './outbox'
import { fileOutboxStorage } from './outbox-file'
import { createSender } from './send'
import { forwardEvent } from './test-events'

const [file, url, taskId] = process.argv.slice(2) as [string, string, string]
const outbox = createOutbox({
  clock: systemClock,
  storage: fileOutboxStorage(file),
  resolve: () => Promise.resolve({ target: { kind: 'webhook', host: '127.0.0.1', url } }),
  send: createSender({ now: Date.now }),
  onGiveUp: () => undefined,
  random: () => 0,
  onChange: () => {
    if (outbox?.status('w').pending === 0) process.stdout.write('idle\n')
  }
})
outbox.enqueue(forwardEvent(taskId), ['w'])
process.stdout.write(`started pending=${outbox.status('w').pending}\n`)
setInterval(() => undefined, 1000) // stays until killed, as the app would
