// Captured io for tests: what a command wrote, and a stdin with chosen contents.
import { Readable } from 'node:stream'
import type { CliIo } from './io'

export interface CapturedIo extends CliIo {
  out(): string
  err(): string
}

export function captureIo(
  options: { stdin?: string; isTTY?: boolean; env?: Record<string, string | undefined> } = {}
): CapturedIo {
  let out = ''
  let err = ''
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    isTTY: options.isTTY ?? false,
    env: options.env ?? {},
    out: () => out,
    err: () => err
  }
}
