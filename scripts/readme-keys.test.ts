// The docs never show an API key on a command line: a process's arguments are readable by every
// local user (`ps`), so every key goes in through the environment, a prompt or standard input.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..')

/** `--api-key VALUE`, `--api-key=VALUE` or `--apikey …`, in any case: a key as an argument. */
const KEY_ARGUMENT = /--api-?key(?:=|[ \t]+(?![`(),.;:]|is\b|as\b|in\b|any\b))\S/i

describe('the docs', () => {
  it('KEY_ARGUMENT finds a key given as an argument, and not the text that says it is refused', () => {
    for (const line of [
      'npm run reference-service -- --api-key dev-key',
      '(`--api-key KEY` works too',
      'agent-tray tasks --api-key=abc',
      '--APIKEY sekret'
    ])
      expect(line).toMatch(KEY_ARGUMENT)
    for (const line of [
      '`--api-key` is refused',
      '`--api-key-stdin`',
      '--api-key is not accepted',
      'rejects --api-key.'
    ])
      expect(line).not.toMatch(KEY_ARGUMENT)
  })

  for (const file of ['README.md', 'ARCHITECTURE.md', 'docs/service-interface.md']) {
    it(`${file} shows no API key on a command line`, () => {
      const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n')
      expect(lines.map((line, i) => `${i + 1}: ${line}`).filter((line) => KEY_ARGUMENT.test(line))).toEqual([])
    })
  }
})
