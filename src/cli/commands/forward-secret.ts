// A signing secret is never an argument (`ps` shows those); the target keeps its id, so its queue and history stay.
import { generateSigningSecret } from '../../core/forward/add-target'
import { replaceSigningSecret } from '../../core/forward/target-secrets'
import { usageError } from '../cli-error'
import { type Context, printJson, readSecrets, remember, withKeychain } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { oneLine } from '../table'
import { findTarget } from './forward'

const SECRET_PROMPT = 'New signing secret (16 characters or more): '

export interface ForwardSecretFlags {
  generate?: boolean
}

export async function forwardSecret(ctx: Context, name: string, flags: ForwardSecretFlags): Promise<ExitCode> {
  const target = findTarget((await ctx.deps.settings()).read().forwarding.targets, name)
  if (target.kind !== 'webhook') throw usageError('A signing secret is for a JSON webhook only.')
  const [secret = ''] = flags.generate ? [generateSigningSecret()] : await readSecrets(ctx, [SECRET_PROMPT])
  if (secret === '') throw usageError('No secret given (or use --generate to have one made).')
  const result = await withKeychain(ctx, (s) => replaceSigningSecret(s.forwarding, target.id, secret))
  if (!result.ok) throw usageError(result.problem)
  // A made secret is shown once, alone on stdout (so it can be piped); a given one never.
  if (ctx.opts.json) printJson(ctx, flags.generate ? { name: target.name, secret } : { name: target.name })
  else if (flags.generate) {
    ctx.io.stdout.write(`${secret}\n`)
    ctx.io.stderr.write(
      `New signing secret of '${oneLine(target.name)}' (shown once; give it to the receiver). Its queue and history stay.\n`
    )
  } else ctx.io.stdout.write(`Replaced the signing secret of '${oneLine(target.name)}'. Its queue and history stay.\n`)
  remember(ctx, secret)
  return EXIT.ok
}
