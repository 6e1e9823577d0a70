// `publish <projectId> <hostname>`: checked against the connection's publishing domain when it is
// known, so a bad hostname is explained before anything is sent.
import { checkPublishHostname } from '../../shared/hostname'
import { CliError } from '../cli-error'
import { type Context, printJson, withClient } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { renderPublish } from '../render'
import { oneLine } from '../table'

export async function publishCommand(ctx: Context, projectId: string, hostname: string): Promise<ExitCode> {
  return withClient(ctx, async ({ client, connection }) => {
    if (connection.publishingDomain !== '') {
      const reasons = checkPublishHostname(hostname, connection.publishingDomain)
      if (reasons.length > 0) throw new CliError(EXIT.publishFailed, `Not published: ${reasons.join(' ')}`)
    }
    const result = await client.publish(projectId, hostname)
    if (ctx.opts.json) printJson(ctx, result)
    else if (result.status === 'success') ctx.io.stdout.write(renderPublish(result, hostname))
    else
      ctx.io.stderr.write(
        `Publishing ${projectId} to ${hostname} failed: ${oneLine(result.message.join(' '), 400) || 'no reason given'}\n`
      )
    return result.status === 'success' ? EXIT.ok : EXIT.publishFailed
  })
}
