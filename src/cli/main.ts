// `agent-tray`: wires the real process (streams, environment, Ctrl-C, keychain) to the commands.
import { createKeytarSecretStore, loadKeytar, probeKeychain } from '../core/secrets/keytar-store'
import { PromptCancelledError, readSecretFromTerminal } from '../core/secrets/prompt'
import { KeychainUnavailableError } from '../core/secrets/types'
import { CliError } from './cli-error'
import { endQuietlyWhenOutputCloses } from './closed-output'
import { EXIT } from './exit-codes'
import { runCli } from './program'
import { realDeps } from './real-deps'

/** How long a keychain may take to answer (an unlock prompt may be showing). */
const KEYCHAIN_TIMEOUT_MS = 30_000

export async function main(argv: string[]): Promise<number> {
  const controller = new AbortController()
  // First Ctrl-C: stop watching cleanly; a second one ends the process at once.
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130)
    controller.abort()
  }
  process.on('SIGINT', onSigint)
  process.on('SIGTERM', onSigint)
  endQuietlyWhenOutputCloses([process.stdout, process.stderr], (code) => process.exit(code))
  try {
    const deps = realDeps({
      env: process.env,
      signal: controller.signal,
      promptHidden: (question) =>
        readSecretFromTerminal({ prompt: question }).catch((e: unknown) => {
          throw e instanceof PromptCancelledError
            ? new CliError(EXIT.interrupted, 'Interrupted: nothing was stored.')
            : e
        }),
      secrets: async () => {
        const keytar = await loadKeytar()
        await probeKeychain(keytar, KEYCHAIN_TIMEOUT_MS)
        return createKeytarSecretStore(keytar)
      },
      isKeychainUnavailable: (e) => e instanceof KeychainUnavailableError
    })
    const io = {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      isTTY: process.stdin.isTTY === true,
      env: process.env,
      progress: process.stderr.isTTY === true ? process.stderr : undefined
    }
    return await runCli(argv, io, deps)
  } finally {
    process.off('SIGINT', onSigint)
    process.off('SIGTERM', onSigint)
  }
}

// Run directly (`tsx src/cli/main.ts`, or the built out/cli/main.js) rather than imported by bin/.
const entry = process.argv[1] ?? ''
if (/[\\/](src[\\/]cli[\\/]main\.ts|out[\\/]cli[\\/]main\.js)$/.test(entry)) {
  process.exitCode = await main(process.argv.slice(2))
}
