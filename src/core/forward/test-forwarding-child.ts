// A process that forwards from an outbox file, as the app or `watch --forward` does, for the tests
// of one writer (outbox.writers.test.ts, the command's watch-forward.test.ts). argv: the outbox
// file, the receiver's URL. It says `ready=<whether it holds the outbox>`; when its stdin ends it
// stops (releasing the outbox), says `closed` and exits.
import type { ForwardTarget } from '../../shared/forward-target'
import { systemClock } from '../util/clock'
import { createForwarding } from './forwarding'
import { NAMES } from './test-events'

const [file, url] = process.argv.slice(2) as [string, string]
const target: ForwardTarget = {
  id: 'f1',
  name: 'hook',
  kind: 'webhook',
  host: '127.0.0.1',
  on: ['failed'],
  when: 'always',
  paused: false,
  quietHours: false
}
const forwarding = createForwarding({
  file,
  clock: systemClock,
  secrets: { get: () => Promise.resolve(JSON.stringify({ url })) },
  settings: () => ({ forwarding: { targets: [target] }, watched: {}, connectionNotifications: {} }),
  names: NAMES,
  moment: () => ({ away: true, quiet: false }),
  onGiveUp: () => undefined
})
void forwarding.ready.then((r) => process.stdout.write(`ready=${r.held}\n`))
process.stdin.resume()
process.stdin.on('end', () => {
  void forwarding.close().then(() => {
    process.stdout.write('closed\n')
    process.exit(0)
  })
})
