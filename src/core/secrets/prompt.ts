// No-echo prompt on a terminal, else the first line of stdin, so the key never has to be a command-line argument.
import type { Readable, Writable } from 'node:stream'

export class PromptCancelledError extends Error {
  override name = 'PromptCancelledError'
}

export interface SecretInput extends Readable {
  isTTY?: boolean
  setRawMode?(mode: boolean): unknown
}

export interface ReadSecretOptions {
  prompt?: string
  input?: SecretInput
  /** Where the prompt goes; stderr so that stdout stays clean for scripts. */
  output?: Writable
}

const MAX_LENGTH = 64 * 1024

export async function readSecretFromTerminal(options: ReadSecretOptions = {}): Promise<string> {
  const input = options.input ?? (process.stdin as SecretInput)
  const output = options.output ?? process.stderr
  return input.isTTY && input.setRawMode
    ? readWithoutEcho(input, output, options.prompt ?? 'API key: ')
    : readFirstLine(input)
}

function readFirstLine(input: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const done = () => {
      input.off('data', onData)
      input.off('end', done)
      input.off('error', onError)
      input.pause()
      resolve(text.split(/\r?\n/)[0]!.trim())
    }
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString()
      if (text.includes('\n') || text.length > MAX_LENGTH) done()
    }
    const onError = (error: Error) => reject(error)
    input.on('data', onData)
    input.once('end', done)
    input.once('error', onError)
    input.resume()
  })
}

function readWithoutEcho(input: SecretInput, output: Writable, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let secret = ''
    // Echo off before the prompt shows, so nothing typed after it can appear.
    input.setRawMode!(true)
    output.write(prompt)
    const finish = (error?: Error) => {
      input.off('data', onData)
      input.setRawMode!(false)
      input.pause()
      output.write('\n')
      if (error) reject(error)
      else resolve(secret.trim())
    }
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n') return finish()
        if (ch === '\u0003') return finish(new PromptCancelledError('Cancelled'))
        if (ch === '\u0004') return secret ? finish() : finish(new PromptCancelledError('Cancelled'))
        if (ch === '\u007f' || ch === '\b') secret = secret.slice(0, -1)
        else if (ch >= ' ' && secret.length < MAX_LENGTH) secret += ch
      }
    }
    input.on('data', onData)
    input.resume()
  })
}
