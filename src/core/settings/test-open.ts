// Test helper run as a child process (see test-as-other-user.ts): opens the settings in DIR and
// prints what happened as one JSON line.
import { openSettings } from './store'

const [dir] = process.argv.slice(2)
if (!dir) throw new Error('usage: test-open DIR')
try {
  const store = await openSettings({ dir })
  process.stdout.write(JSON.stringify({ ok: true, notices: store.takeNotices() }) + '\n')
} catch (error) {
  process.stdout.write(
    JSON.stringify({ ok: false, name: (error as Error).name, message: (error as Error).message }) + '\n'
  )
}
