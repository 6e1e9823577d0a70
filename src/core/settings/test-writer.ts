// Test helper run as a child process: watches `count` projects named `<prefix>-<n>`, one locked
// update each, to show that two processes writing at once lose nothing.
import { watchProject } from './edit'
import { openSettings } from './store'

const [dir, prefix, count] = process.argv.slice(2)
if (!dir || !prefix || !count) throw new Error('usage: test-writer DIR PREFIX COUNT')
const store = await openSettings({ dir })
for (let n = 0; n < Number(count); n++) {
  await store.update((draft) => {
    watchProject(draft, 'c1', `${prefix}-${n}`, new Date())
  })
}
