// A tiny HTTP client for the service's own tests: real requests, raw answers.
import { request } from 'undici'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: () => unknown
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {}
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== null && options.key !== undefined) headers['x-api-key'] = options.key
  let body: string | Buffer | undefined = options.raw
  if (options.body !== undefined) body = JSON.stringify(options.body)
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body })
  const text = await res.body.text()
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as unknown }
}
