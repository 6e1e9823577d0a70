// The command line: commander parses, a handler runs, and every failure becomes one line on
// stderr and its exit code (exit-codes.ts). Nothing here touches the process: io and deps come in.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { isServiceError } from '../core/client'
import { SERVICES } from '../core/providers/registry'
import { SettingsEditError } from '../core/settings/edit'
import { SettingsFileError } from '../core/settings/file-error'
import { SettingsValidationError } from '../core/settings/store'
import { DEFAULT_SERVICE_URL } from '../shared/base-url'
import { COST_GROUPINGS } from '../shared/cost-report'
import { DEFAULT_FORWARD_EVENTS, FORWARD_EVENTS } from '../shared/forward-target'
import { boundProblem, SINGLE_INTERVAL_BOUNDS } from '../shared/polling'
import { API_KEY_FLAG_MESSAGE, isCliError } from './cli-error'
import { approveCommand, replyCommand } from './commands/answer'
import { costsCommand, type CostsFlags } from './commands/costs'
import { forwardAdd, type ForwardAddFlags, forwardList, forwardRemove, forwardTest } from './commands/forward'
import { forwardSecret, type ForwardSecretFlags } from './commands/forward-secret'
import { loginCommand, type LoginFlags, logoutCommand } from './commands/login'
import { nowCommand, type NowFlags } from './commands/now'
import { openCommand } from './commands/open'
import { productProjectsCommand } from './commands/products'
import { projectCreate, projectGet, projectUpdate } from './commands/project'
import { publishCommand } from './commands/publish'
import { taskCreateCommand, type TaskCreateFlags } from './commands/task-create'
import { stepsCommand, tasksCommand } from './commands/tasks'
import { usageCommand } from './commands/usage'
import { watchCommand } from './commands/watch'
import { watchListAdd, watchListList, watchListRemove } from './commands/watch-list'
import { API_KEY_ENV, BASE_URL_ENV, type Context, type GlobalOptions, keychainUnavailable } from './context'
import type { CliDeps, SettingsPort } from './deps'
import { EXIT, EXIT_CODES_HELP, type ExitCode, exitCodeForServiceError } from './exit-codes'
import { checkId, checkIds } from './ids'
import { type CliIo, guardedIo, redact } from './io'
import { SERVICE_KINDS } from './services'

/** `--api-key`, `--api-key=…`, `--apikey`, `--api_key`: refused before parsing, so no parser message can echo the value. */
const API_KEY_FLAG = /^--api[-_]?key(=|$)/i

const INTERVAL_RANGE = `${SINGLE_INTERVAL_BOUNDS.min} to ${SINGLE_INTERVAL_BOUNDS.max} ms`

/** --interval-ms: one interval for every poll, within the app's own polling bounds. */
function intervalMs(value: string): number {
  const n = Number(value)
  const problem = boundProblem(n, SINGLE_INTERVAL_BOUNDS)
  if (problem !== null)
    throw new InvalidArgumentError(`The time between polls, in milliseconds, ${problem} (the app polls no more often).`)
  return n
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value]
}

/** Commander's message in our one-line style; it quotes only the argument, so `--x=value` never echoes a value. */
function parseErrorLine(message: string): string {
  return oneLineMessage(message.replace(/^\s*error:\s*/i, '').replace(/'(--?[^'=\s]+)=[^']*'/g, "'$1=…'"))
}

/** An error message on one line (every run of whitespace one space; linear, whatever the text). */
function oneLineMessage(message: string): string {
  return message.replace(/\s+/g, ' ').trim()
}

function checkProjectFlag<F extends { project?: string }>(flags: F): F {
  if (flags.project !== undefined) checkId(flags.project, 'project')
  return flags
}

export async function runCli(argv: readonly string[], rawIo: CliIo, deps: CliDeps): Promise<number> {
  // Every line written goes through the guard (secrets, terminal controls), whatever the error path.
  const secrets: string[] = []
  const envKey = rawIo.env[API_KEY_ENV]
  if (envKey && envKey.trim() !== '') secrets.push(envKey.trim())
  const io = guardedIo(rawIo, () => secrets)
  // Settings open once, on first use; the store's notices are said at once and at the end for anything new, whether
  // the command succeeds or fails, since they are said only this once.
  let settings: Promise<SettingsPort> | undefined
  const tell = (store: SettingsPort): void => {
    for (const notice of store.takeNotices()) io.stderr.write(`agent-tray: ${notice}\n`)
  }
  const tellRest = async (): Promise<void> => {
    const store = await settings?.catch(() => null)
    if (store) tell(store)
  }
  const openSettings = () =>
    (settings ??= deps.settings().then((store) => {
      tell(store)
      return store
    }))
  const ctx: Context = { io, deps: { ...deps, settings: openSettings }, opts: {}, secrets, skipped: [] }

  if (argv.some((a) => API_KEY_FLAG.test(a))) {
    io.stderr.write(`agent-tray: --api-key is not accepted. ${API_KEY_FLAG_MESSAGE}\n`)
    return EXIT.usage
  }

  let code: ExitCode = EXIT.ok
  const program = buildProgram(ctx, (c) => (code = c))
  try {
    await program.parseAsync([...argv], { from: 'user' })
    await tellRest()
    // What was printed is short of what the service sent (each skipped record was warned about):
    // a script must be able to tell that from a complete answer.
    return code === EXIT.ok && ctx.skipped.length > 0 ? EXIT.invalidResponse : code
  } catch (e) {
    await tellRest()
    return report(ctx, e)
  }
}

function report(ctx: Context, e: unknown): number {
  const { io } = ctx
  if (e instanceof CommanderError) {
    // Help and --version end here too, with their own exit code 0.
    return e.exitCode === 0 ? EXIT.ok : EXIT.usage
  }
  const say = (message: string): void => {
    io.stderr.write(`agent-tray: ${oneLineMessage(message)}\n`)
    if (ctx.opts.debug && e instanceof Error && e.stack) io.stderr.write(redact(e.stack, ctx.secrets) + '\n')
  }
  if (isCliError(e)) {
    say(e.message)
    return e.exitCode
  }
  if (isServiceError(e)) {
    say(e.message)
    return exitCodeForServiceError(e.kind)
  }
  if (e instanceof SettingsEditError || e instanceof SettingsValidationError) {
    say(e.message)
    return EXIT.usage
  }
  if (e instanceof SettingsFileError) {
    say(e.message)
    return EXIT.settingsFiles
  }
  if (ctx.deps.isKeychainUnavailable(e)) {
    say(keychainUnavailable(e).message)
    return EXIT.keychainUnavailable
  }
  say(
    `Unexpected error: ${e instanceof Error ? e.message : String(e)}${ctx.opts.debug ? '' : ' (run with --debug for details)'}`
  )
  return EXIT.internal
}

function buildProgram(ctx: Context, setCode: (code: ExitCode) => void): Command {
  const { io } = ctx
  const program = new Command('agent-tray')
  program
    .description('Watch and drive the AI coding agent service from the terminal.')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(`agent-tray: ${parseErrorLine(s)} (see agent-tray --help)\n`)
    })
    .option('--base-url <url>', `the service URL (default: ${BASE_URL_ENV}, else the active connection)`)
    .option('--api-key-stdin', `read the API key from standard input (else ${API_KEY_ENV}, else the keychain)`)
    .option('--json', 'print JSON for scripts (JSON lines for watch)')
    .option('--debug', 'print stack traces of errors')
    .addHelpText(
      'after',
      `\nThe API key is never an argument: use \`agent-tray login\`, ${API_KEY_ENV}, or --api-key-stdin.\n\n${EXIT_CODES_HELP}\n`
    )
    .hook('preAction', (_root, action) => {
      ctx.opts = action.optsWithGlobals<GlobalOptions>()
      const names: string[] = []
      for (let c: Command | null = action; c !== null && c !== _root; c = c.parent) names.unshift(c.name())
      ctx.command = names.join(' ')
    })

  const run =
    <A extends unknown[]>(handler: (...args: A) => Promise<ExitCode>) =>
    async (...args: A) => {
      setCode(await handler(...args))
    }

  const project = program.command('project').description('create, show or update a project')
  project
    .command('create')
    .description('create a project')
    .option('--name <name>', 'project name')
    .option('--description <text>', 'project description')
    .option('--software-product-id <id>', 'software product the project belongs to')
    .option('--project-type <type>', 'project type (web)')
    .option('--text-requirement <text>', 'text requirements for the agent')
    .option('--file-url <url>', 'URL of an image for the requirements (repeatable)', collect)
    .option('--user-email <email>', 'user e-mail from the client application')
    .option('--return-url <url>', 'URL the prebuilt interface sends the user back to')
    .option('--ref-id <id>', 'reference id from the client application')
    .option('--watch', 'also add the new project to the watch list')
    .action(run((flags: Parameters<typeof projectCreate>[1]) => projectCreate(ctx, flags)))
  project
    .command('get')
    .description('show a project')
    .argument('<projectId>')
    .action(run((id: string) => projectGet(ctx, checkId(id, 'project'))))
  project
    .command('update')
    .description('change a project (only these five fields can change)')
    .argument('<projectId>')
    .option('--name <name>', 'project name')
    .option('--description <text>', 'project description')
    .option('--user-email <email>', 'user e-mail')
    .option('--return-url <url>', 'return URL')
    .option('--ref-id <id>', 'reference id')
    .action(
      run((id: string, flags: Parameters<typeof projectUpdate>[2]) => projectUpdate(ctx, checkId(id, 'project'), flags))
    )

  program
    .command('projects')
    .description("list a software product's projects (where the service offers it)")
    .option('--product <id>', 'the software product')
    .option('--product-of <project>', 'take the product of this project (an id or a link that holds it)')
    .option('--order <order>', 'asc or desc by creation time (default desc)')
    .action(run((flags: Parameters<typeof productProjectsCommand>[1]) => productProjectsCommand(ctx, flags)))

  const task = program.command('task').description('start a task (where the service offers it)')
  task
    .command('create')
    .description('start a task in a project; --watch follows it to its end')
    .requiredOption('--project <projectId>', 'the project')
    .requiredOption('--name <name>', 'a short name for the task')
    .requiredOption('--text <requirement>', 'what the agent should do')
    .option('--watch', 'follow the task until it ends')
    .option('--exit-status', 'with --watch: exit 1 unless the task completed')
    .addOption(
      new Option('--interval-ms <ms>', `with --watch: time between polls (${INTERVAL_RANGE})`).argParser(intervalMs)
    )
    .action(run((flags: TaskCreateFlags) => taskCreateCommand(ctx, checkProjectFlag(flags))))

  program
    .command('tasks')
    .description("list a project's tasks")
    .argument('<projectId>')
    .action(run((id: string) => tasksCommand(ctx, checkId(id, 'project'))))
  program
    .command('steps')
    .description("list a task's steps")
    .argument('<taskId>')
    .action(run((id: string) => stepsCommand(ctx, checkId(id, 'task'))))
  program
    .command('usage')
    .description("a task's tokens and cost per call, per model and in total")
    .argument('<taskId>')
    .option(
      '--project <projectId>',
      "the task's project, to compare with its total_price (default: searched in the watch list)"
    )
    .action(
      run((id: string, flags: { project?: string }) => usageCommand(ctx, checkId(id, 'task'), checkProjectFlag(flags)))
    )
  program
    .command('costs')
    .description(
      'what the watched projects cost, counted on the local day each call was made (default: the last 30 days, by day)'
    )
    .option('--project <projectIds...>', 'these projects instead of the watched ones')
    .option('--since <date>', 'the first day, YYYY-MM-DD (default: 29 days before --until)')
    .option('--until <date>', 'the last day, YYYY-MM-DD, not after today (default: today)')
    .addOption(
      new Option('--by <grouping>', 'rows by day, month, project, model (with calls and tokens) or task')
        .choices(COST_GROUPINGS)
        .default('day')
    )
    .option('--csv', 'print CSV (RFC 4180 quoting, one line per row)')
    .option(
      '--agents',
      "every agent account's costs in its own units (today, this month, in total) and its per-unit budgets"
    )
    .action(
      run((flags: CostsFlags) =>
        costsCommand(ctx, { ...flags, project: flags.project ? checkIds(flags.project, 'project') : undefined })
      )
    )
  program
    .command('publish')
    .description('publish a project to a sub-domain of the service')
    .argument('<projectId>')
    .argument('<hostname>', 'e.g. my-app.<publishing domain>')
    .action(run((id: string, hostname: string) => publishCommand(ctx, checkId(id, 'project'), hostname)))
  program
    .command('watch')
    .description(
      'print changes as they happen (default: every account: the watched projects, and every task of the other services); with --task, follow one task to its end'
    )
    .argument('[projectIds...]')
    .option('--task <taskId>', 'follow this task until it ends')
    .option('--project <projectId>', "the task's project (default: searched in the watch list)")
    .option('--exit-status', 'with --task: exit 1 unless the task completed')
    .option('--forward', 'also send what is told to the forwarding targets (agent-tray forward), through the outbox')
    .addOption(new Option('--interval-ms <ms>', `time between polls (${INTERVAL_RANGE})`).argParser(intervalMs))
    .action(
      run((ids: string[], flags: Parameters<typeof watchCommand>[2]) => {
        if (flags.task !== undefined) checkId(flags.task, 'task')
        return watchCommand(ctx, checkIds(ids, 'project'), checkProjectFlag(flags))
      })
    )

  program
    .command('now')
    .description(
      'what needs you across every account of every service: waiting for you first, then failures, then running (ids for approve and reply)'
    )
    .option('--all', 'every task every account reports: what needs you first, then the rest by last change')
    .action(run((flags: NowFlags) => nowCommand(ctx, flags)))
  program
    .command('approve')
    .description('approve the plan of a task waiting for you (TASK: its id in `now`), where its service offers it')
    .argument('<task>')
    .action(run((ref: string) => approveCommand(ctx, ref)))
  program
    .command('reply')
    .description('send a message to a task (TASK: its id in `now`), where its service offers it')
    .argument('<task>')
    .argument('<message...>', 'the words of the reply (joined by spaces)')
    .action(run((ref: string, words: string[]) => replyCommand(ctx, ref, words)))

  program
    .command('open')
    .description('open the Agent Tray window on a project or a task (hands an agent-tray:// link to the running app)')
    .argument('[projectId]')
    .argument('[taskId]')
    .option('--print', 'print the link instead of opening it')
    .action(
      run((projectId: string | undefined, taskId: string | undefined, flags: { print?: boolean }) =>
        openCommand(
          ctx,
          projectId === undefined ? undefined : checkId(projectId, 'project'),
          taskId === undefined ? undefined : checkId(taskId, 'task'),
          flags
        )
      )
    )

  program
    .command('login')
    .description(
      `store the API key of a service in the system keychain (asked without echo, or read from stdin), checked first; with no --base-url, --service's own address (for ${SERVICES[0]!.kind}: the stored connection, else ${DEFAULT_SERVICE_URL})`
    )
    .addOption(
      new Option('--service <kind>', `which service the account is of (default: ${SERVICES[0]!.kind})`).choices(
        SERVICE_KINDS
      )
    )
    .option('--name <name>', 'a name for this account (several accounts of one service: which one)')
    .option(
      '--publishing-domain <domain>',
      "the service's publishing domain, so `publish` checks hostnames before sending"
    )
    .action(run((flags: LoginFlags) => loginCommand(ctx, flags)))
  program
    .command('logout')
    .description("remove the connection's API key from the keychain")
    .action(run(() => logoutCommand(ctx)))

  const list = program.command('watch-list').description('the projects watched by the tray app and `watch`')
  list
    .command('add')
    .argument('<projects...>', "project ids, or links that hold them (such as a project's prebuilt_url)")
    .action(run((projects: string[]) => watchListAdd(ctx, projects)))
  list
    .command('remove')
    .argument('<projectIds...>')
    .action(run((ids: string[]) => watchListRemove(ctx, ids)))
  list.command('list').action(run(() => watchListList(ctx)))

  const forward = program
    .command('forward')
    .description('where notifications are forwarded when you are away (ntfy, Slack, Discord, Telegram, JSON webhooks)')
  forward
    .command('add')
    .argument('[-]', 'read the URL from standard input even on a terminal')
    .description(
      'add a target: ntfy://host/topic, ntfys://host/topic, a Slack or Discord webhook URL, tgram://TOKEN/CHAT, an https URL (JSON). The URL holds a token, so it is never an argument: it is asked for without echo, or read from the first line of stdin'
    )
    .option('--name <name>', 'its name (default: kind and host)')
    .option('--on <events>', `${FORWARD_EVENTS.join(',')} (default: ${DEFAULT_FORWARD_EVENTS.join(',')})`)
    .option('--when <when>', 'always, or away: screen locked or idle (default: away)')
    .option(
      '--secret-stdin',
      'JSON webhook: read the signing secret too (asked for, or the second line of stdin); without it one is made and printed once'
    )
    .option('--quiet-hours', "keep the desktop's quiet hours too: nothing is forwarded during them")
    .action(run((arg: string | undefined, flags: ForwardAddFlags) => forwardAdd(ctx, arg, flags)))
  forward
    .command('list')
    .description('names, kinds and hosts (never a token)')
    .action(run(() => forwardList(ctx)))
  forward
    .command('test [name]')
    .description('send a test message to one target or all; non-zero when one refuses')
    .action(run((name: string | undefined) => forwardTest(ctx, name)))
  forward.command('remove <name>').action(run((name: string) => forwardRemove(ctx, name)))
  forward
    .command('secret <name>')
    .description(
      "a JSON webhook's new signing secret, from stdin's first line or made with --generate (printed once); its queue and history stay"
    )
    .option('--generate', 'make a random secret and print it once')
    .action(run((name: string, flags: ForwardSecretFlags) => forwardSecret(ctx, name, flags)))
  return program
}
