// `approve TASK` and `reply TASK MESSAGE…`: a person's answer to a task waiting for them, where its service offers it
// (its descriptor's capabilities); elsewhere exit 10, saying what the service offers. TASK is `now`'s id. A reply the
// service does not take is printed back, so it is not lost.
import { isServiceError, type ServiceError } from '../../core/client'
import { MAX_REPLY_LENGTH } from '../../shared/provider'
import { openStoredAgentAccount } from '../accounts'
import { notFoundError, usageError } from '../cli-error'
import { connectionNamed, type Context, printJson } from '../context'
import { EXIT, type ExitCode, exitCodeForServiceError } from '../exit-codes'
import { descriptorOf, isAgentAccount, notOffered, requireKnownService } from '../services'
import { oneLine } from '../table'
import { parseTaskRef } from '../task-ref'

type Answer = { kind: 'approve' } | { kind: 'reply'; message: string }

const WHAT: Record<Answer['kind'], string> = { approve: 'approving a plan', reply: 'replying' }

export function approveCommand(ctx: Context, ref: string): Promise<ExitCode> {
  return answer(ctx, ref, { kind: 'approve' })
}

export function replyCommand(ctx: Context, ref: string, words: readonly string[]): Promise<ExitCode> {
  const message = words.join(' ').trim()
  if (message === '') throw usageError('The reply is empty: give the message after the task id.')
  if (message.length > MAX_REPLY_LENGTH)
    throw usageError(`The reply must be at most ${MAX_REPLY_LENGTH.toLocaleString('en-US')} characters.`)
  return answer(ctx, ref, { kind: 'reply', message })
}

async function answer(ctx: Context, ref: string, answer: Answer): Promise<ExitCode> {
  const { connectionId, taskId } = parseTaskRef(ref)
  const connection = (await ctx.deps.settings()).read().connections.find((c) => c.id === connectionId)
  if (connection === undefined)
    throw notFoundError(`No account has the id ${connectionId}: \`agent-tray now\` prints each task's id.`)
  requireKnownService(connection)
  const descriptor = descriptorOf(connection)
  const offered = isAgentAccount(connection) && descriptor.capabilities[answer.kind]
  const refusal = notOffered(connection, `${WHAT[answer.kind]} from Agent Tray`)
  if (!offered) throw withPageHint(refusal)
  const account = await openStoredAgentAccount(ctx, connection, connectionNamed(ctx))
  try {
    if (answer.kind === 'approve') {
      if (account.approve === undefined) throw withPageHint(refusal)
      await account.approve(taskId, ctx.deps.signal)
    } else {
      if (account.reply === undefined) throw withPageHint(refusal)
      try {
        await account.reply(taskId, answer.message, ctx.deps.signal)
      } catch (e) {
        if (!isServiceError(e)) throw e
        return notSent(ctx, e, ref, descriptor.kind, answer.message)
      }
    }
  } finally {
    await account.close()
  }
  const where = `${descriptor.displayName} (${oneLine(connection.name)})`
  if (ctx.opts.json)
    printJson(ctx, { [answer.kind === 'approve' ? 'approved' : 'replied']: true, id: ref, service: descriptor.kind })
  else
    ctx.io.stdout.write(
      answer.kind === 'approve'
        ? `Approved the plan of task ${taskId} on ${where}.\n`
        : `Sent the reply to task ${taskId} on ${where}.\n`
    )
  return EXIT.ok
}

/** A reply the service did not take: its words, then the text as typed, so it is not lost (the shell's history may
 *  not keep it); exit 13 when the task is busy (409: an agent still running), else the error's own code. */
function notSent(ctx: Context, e: ServiceError, ref: string, service: string, message: string): ExitCode {
  const busy = e.status === 409
  const taken = e.status === undefined ? 'may not have been sent' : 'was not sent'
  if (ctx.opts.json) printJson(ctx, { replied: false, id: ref, service, busy, message })
  ctx.io.stderr.write(`agent-tray: ${oneLine(e.message, 400)}\nYour reply ${taken}. Here it is, to send again:\n\n`)
  ctx.io.stderr.write(`${message}\n`)
  return busy ? EXIT.busy : exitCodeForServiceError(e.kind)
}

function withPageHint<E extends Error>(e: E): E {
  e.message += " Answer it on the service's own page: `agent-tray now` prints each task's url (--json)."
  return e
}
