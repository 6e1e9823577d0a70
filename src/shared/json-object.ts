/** A JSON object: not null, not a list (both are `typeof 'object'` too). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
