// `forward add|list|test|remove`: where notifications are forwarded (core/forward). The URL holds a
// token: it goes to the keychain at once and is never printed; config.json keeps name, kind, host.
import { randomUUID } from 'node:crypto'
import { planTarget } from '../../core/forward/add-target'
import { testEvent } from '../../core/forward/event'
import { createSender } from '../../core/forward/send'
import { deleteTargetSecret, loadTargetSecret, saveTargetSecret } from '../../core/forward/target-secrets'
import { parseTarget, targetSecrets } from '../../core/forward/target-url'
import {
  DEFAULT_FORWARD_EVENTS,
  FORWARD_EVENTS,
  type ForwardEventKind,
  type ForwardTarget,
  type ForwardWhen
} from '../../shared/forward-target'
import { CliError, notFoundError, usageError } from '../cli-error'
import { type Context, printJson, readSecrets, remember, withKeychain } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { oneLine, renderTable } from '../table'

export interface ForwardAddFlags {
  name?: string
  on?: string
  when?: string
  secretStdin?: boolean
  quietHours?: boolean
}

/** A target's `when`, and whether it keeps the desktop's quiet hours too. */
function whenText(t: Pick<ForwardTarget, 'when' | 'quietHours'>): string {
  return t.quietHours ? `${t.when}, not in quiet hours` : t.when
}

function parseOn(text: string | undefined): ForwardEventKind[] {
  if (text === undefined) return [...DEFAULT_FORWARD_EVENTS]
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  const bad = items.filter((s) => !(FORWARD_EVENTS as readonly string[]).includes(s))
  if (items.length === 0 || bad.length > 0)
    throw usageError(`--on takes a comma-separated list of ${FORWARD_EVENTS.join(', ')}.`)
  return [...new Set(items)] as ForwardEventKind[]
}

/** Asked on a terminal; the URL's kind and host are printed once it is added, never the URL. */
const URL_PROMPT = 'Target URL (it holds a token; not shown): '
const SECRET_PROMPT = 'Signing secret: '

/** `arg`: only `-` (standard input, as when it is not a terminal); a URL there is refused unread. */
export async function forwardAdd(ctx: Context, arg: string | undefined, flags: ForwardAddFlags): Promise<ExitCode> {
  if (arg !== undefined && arg !== '-') {
    remember(ctx, arg)
    throw usageError(
      'A target URL holds its token, so it is never an argument (the shell history and the process list keep those): run `agent-tray forward add` and paste it at the prompt, or give it on standard input (`agent-tray forward add < url.txt`). Nothing was stored.'
    )
  }
  const [raw = '', given = ''] = await readSecrets(
    ctx,
    flags.secretStdin ? [URL_PROMPT, SECRET_PROMPT] : [URL_PROMPT],
    arg === '-' || !ctx.io.isTTY
  )
  if (raw === '')
    throw usageError(
      ctx.io.isTTY && arg !== '-'
        ? 'No target URL was entered; nothing was stored.'
        : 'No target URL on standard input.'
    )
  for (const s of targetSecrets(raw)) remember(ctx, s)
  const check = parseTarget(raw)
  if (!check.ok) throw usageError(check.problem)
  const when = (flags.when ?? 'away') as ForwardWhen
  if (when !== 'always' && when !== 'away') throw usageError('--when is always or away.')
  const on = parseOn(flags.on)
  let secret: string | undefined
  if (flags.secretStdin) {
    if (check.target.kind !== 'webhook') throw usageError('A signing secret is for a JSON webhook only.')
    if (given === '')
      throw usageError('No signing secret was given (with --secret-stdin it is the line after the URL).')
    secret = given
  }
  const store = await ctx.deps.settings()
  const plan = planTarget(
    store.read().forwarding.targets,
    {
      url: raw,
      on,
      when,
      quietHours: flags.quietHours === true,
      name: flags.name,
      secret
    },
    randomUUID()
  )
  if (!plan.ok) throw usageError(plan.problem)
  const { target, generatedSecret } = plan
  const name = target.name
  // The key store first: a target in config.json always has its URL.
  await withKeychain(ctx, (s) => saveTargetSecret(s.forwarding, target.id, plan.stored))
  await store.update((draft) => {
    draft.forwarding.targets.push(target)
  })
  if (ctx.opts.json) printJson(ctx, { ...target, generatedSecret: generatedSecret ?? null })
  else {
    ctx.io.stdout.write(
      `Added ${target.kind} target '${oneLine(name)}' (${oneLine(target.host)}): ${on.join(', ')}, ${whenText(target)}.\n`
    )
    // Made here, so the receiver can check each request: the user's only chance to copy it.
    if (generatedSecret !== undefined)
      ctx.io.stdout.write(
        `Signing secret: ${generatedSecret}\nIt will not be shown again: give it to the receiver now, to verify X-Agent-Tray-Signature.\n`
      )
  }
  return EXIT.ok
}

export async function forwardList(ctx: Context): Promise<ExitCode> {
  const targets = (await ctx.deps.settings()).read().forwarding.targets
  if (ctx.opts.json) {
    printJson(ctx, targets)
    return EXIT.ok
  }
  if (targets.length === 0) {
    ctx.io.stdout.write('No forwarding targets. Add one with `agent-tray forward add` (it asks for the URL).\n')
    return EXIT.ok
  }
  ctx.io.stdout.write(
    renderTable(
      ['NAME', 'KIND', 'HOST', 'ON', 'WHEN'],
      targets.map((t) => [oneLine(t.name), t.kind, oneLine(t.host), t.on.join(','), t.paused ? 'paused' : whenText(t)])
    )
  )
  return EXIT.ok
}

export function findTarget(targets: ForwardTarget[], name: string): ForwardTarget {
  const t = targets.find((x) => x.name === name)
  if (!t) throw notFoundError(`No forwarding target is named '${oneLine(name)}' (see agent-tray forward list).`)
  return t
}

export async function forwardRemove(ctx: Context, name: string): Promise<ExitCode> {
  const store = await ctx.deps.settings()
  const target = findTarget(store.read().forwarding.targets, name)
  await store.update((draft) => {
    draft.forwarding.targets = draft.forwarding.targets.filter((t) => t.id !== target.id)
  })
  await withKeychain(ctx, (s) => deleteTargetSecret(s.forwarding, target.id))
  if (!ctx.opts.json) ctx.io.stdout.write(`Removed target '${oneLine(target.name)}'.\n`)
  return EXIT.ok
}

/** Sends a test message to one target or all; non-zero with each refusal's reason. */
export async function forwardTest(ctx: Context, name: string | undefined): Promise<ExitCode> {
  const all = (await ctx.deps.settings()).read().forwarding.targets
  const targets = name === undefined ? all : [findTarget(all, name)]
  if (targets.length === 0) throw usageError('No forwarding targets to test.')
  const send = createSender({ now: () => ctx.deps.now().getTime() })
  let failed = 0
  let refused = false
  for (const t of targets) {
    const loaded = await withKeychain(ctx, (s) => loadTargetSecret(s.forwarding, t.id))
    if (loaded === null) {
      failed++
      ctx.io.stderr.write(`${oneLine(t.name)}: its URL is not in the keychain; remove and add it again.\n`)
      continue
    }
    for (const s of loaded.secrets) remember(ctx, s)
    const outcome = await send(loaded.target, testEvent(ctx.deps.now().getTime(), randomUUID()), loaded.secret)
    if (outcome.kind === 'delivered') ctx.io.stdout.write(`${oneLine(t.name)}: delivered.\n`)
    else {
      failed++
      refused ||= outcome.kind === 'refused'
      ctx.io.stderr.write(
        `${oneLine(t.name)}: ${outcome.kind === 'refused' ? 'refused' : 'not delivered'}: ${oneLine(outcome.reason, 300)}\n`
      )
    }
  }
  if (failed > 0)
    throw new CliError(
      refused ? EXIT.refused : EXIT.service,
      `${failed} of ${targets.length} target${targets.length === 1 ? '' : 's'} did not take the test message.`
    )
  return EXIT.ok
}
