// A loopback receiver scoped to one vitest test (test-receivers.ts itself is shared with Playwright).
import { onTestFinished } from 'vitest'
import { type Answer, type Receiver, startReceiver } from './test-receivers'

/** A receiver for the test under way, closed when that test finishes. */
export async function receiverForTest(fallback: Answer): Promise<Receiver> {
  const r = await startReceiver(fallback)
  onTestFinished(() => r.close())
  return r
}
