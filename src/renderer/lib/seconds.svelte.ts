// A clock for running work's ticking durations: once a second, only while something shows one (the
// app's own clock, app.now, moves every 30 s, enough for ages).
import { createSubscriber } from 'svelte/reactivity'

const subscribe = createSubscriber((update) => {
  const tick = setInterval(update, 1_000)
  return () => clearInterval(tick)
})

/** Now, in epoch ms; read inside a reactive context, it re-reads every second. */
export function secondsNow(): number {
  subscribe()
  return Date.now()
}
