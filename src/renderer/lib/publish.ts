// After a publish, the site's address is shown once, as a link with Copy: a message of the
// service that only repeats it ("Published to https://…") is left out, anything else it says stays.

const ONLY_REPEATS = /^(?:successfully\s+)?(?:published|deployed|live)(?:\s+(?:to|at|on))?\s*:?$/i

/** The messages worth showing beside the address `url` (https://host). */
export function publishMessagesBeside(messages: readonly string[], url: string): string[] {
  const host = url
    .replace(/^https?:\/\//i, '')
    .replace(/\/$/, '')
    .toLowerCase()
  return messages.filter((message) => {
    const lower = message.toLowerCase()
    if (!lower.includes(host)) return true
    const rest = lower
      .replace(new RegExp(`(?:https?://)?${escape(host)}/?`, 'g'), '')
      .replace(/[\s.!,;]+$/, '')
      .trim()
    return rest !== '' && !ONLY_REPEATS.test(rest)
  })
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
