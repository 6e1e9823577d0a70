// Asks for a secret on the terminal without echoing it: raw mode, one character at a time.
import { CliError } from './errors'
import { EXIT } from './exit-codes'

export function promptHidden(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<string> {
  return new Promise((resolve, reject) => {
    output.write(question)
    let value = ''
    const wasRaw = input.isRaw
    input.setRawMode(true)
    input.resume()
    input.setEncoding('utf8')
    const finish = (error?: Error) => {
      input.setRawMode(wasRaw)
      input.pause()
      input.off('data', onData)
      output.write('\n')
      if (error) reject(error)
      else resolve(value)
    }
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish()
        if (ch === '\u0003') return finish(new CliError(EXIT.interrupted, 'Interrupted: nothing was stored.'))
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1)
        else if (ch >= ' ') value += ch
      }
    }
    input.on('data', onData)
  })
}
