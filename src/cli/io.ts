// What a command may touch of the outside world: passed in, so tests capture it and main wires the
// process's own streams.
import { REDACTED, redactSecrets } from '../core/secrets/redact'

export interface Writable {
  write(text: string): unknown
}

export interface CliIo {
  stdout: Writable
  stderr: Writable
  stdin: NodeJS.ReadableStream
  /** Whether stdin is a terminal (then the key is prompted for without echo). */
  isTTY: boolean
  env: Record<string, string | undefined>
}

/** Reads stdin to its end (for `--api-key-stdin` and `login` without a terminal). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Wraps the output streams so that no listed secret can reach them, whatever path an error takes.
 * A safety net: the code is written never to print the key in the first place.
 */
export function redactingIo(io: CliIo, secrets: () => readonly string[]): CliIo {
  const wrap = (w: Writable): Writable => ({
    write: (text: string) => w.write(redact(text, secrets()))
  })
  return { ...io, stdout: wrap(io.stdout), stderr: wrap(io.stderr) }
}

/** What a secret becomes in the output; tests look for it to catch a leak at its source. */
export { REDACTED }

/** Every form of each secret (see core/secrets/redact.ts) replaced by REDACTED. */
export function redact(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets, REDACTED)
}
