// An id goes into a URL path and a settings key: the rule is wider than UUIDs so other servers work, but never lets
// through a path changer ('/', '.', '..') or a control character.

export const MAX_ID_LENGTH = 200

const ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._:-]*$/
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** Why `value` cannot be an id, in words that fit after "<what> ", or null when it can. */
export function idProblem(value: string): string | null {
  if (value === '') return 'must not be empty'
  if (value.length > MAX_ID_LENGTH) return `must be at most ${MAX_ID_LENGTH} characters`
  if (CONTROL.test(value)) return 'must not contain control characters'
  if (!ID_PATTERN.test(value)) return 'may contain only letters, digits and . _ : - (not starting with .)'
  return null
}

/** Why `value` cannot be a connection's id: it is a key store account, and ':' names other accounts (`forward:x`). */
export function connectionIdProblem(value: string): string | null {
  return idProblem(value) ?? (value.includes(':') ? "must not contain ':'" : null)
}
