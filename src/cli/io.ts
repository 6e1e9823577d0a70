// What a command may touch of the outside world: passed in, so tests capture it and main wires the
// process's own streams.
import { REDACTED, redactSecrets } from '../core/secrets/redact'
import { escapeUnsafeCharacters } from '../shared/controls'

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
  /** stderr when it is a terminal, for a progress bar; only our own words go here, never text from the service. */
  progress?: Writable
}

/** Reads stdin to its end (for `--api-key-stdin` and `login` without a terminal). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The command's one way out: no listed secret passes (a safety net) and no service character acts on the terminal;
 *  only line feeds pass, as the output is made of lines. */
export function guardedIo(io: CliIo, secrets: () => readonly string[]): CliIo {
  const wrap = (w: Writable): Writable => ({
    write: (text: string) => w.write(escapeUnsafeCharacters(redact(text, secrets()), { keepNewlines: true }))
  })
  return { ...io, stdout: wrap(io.stdout), stderr: wrap(io.stderr) }
}

/** What a secret becomes in the output; tests look for it to catch a leak at its source. */
export { REDACTED }

/** Every form of each secret (see core/secrets/redact.ts) replaced by REDACTED. */
export function redact(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets, REDACTED)
}
