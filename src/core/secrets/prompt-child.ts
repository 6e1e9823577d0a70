// Test helper run in a real pseudo-terminal: reads a key with readSecretFromTerminal and prints
// only its length, so the test can tell whether the terminal echoed it.
import { readSecretFromTerminal } from './prompt'

const key = await readSecretFromTerminal({ prompt: 'API key: ' })
process.stderr.write(`read ${key.length} characters\n`)
