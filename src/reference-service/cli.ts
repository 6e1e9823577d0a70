// The key comes from AGENT_TRAY_SERVICE_API_KEY only: every local user can read a process's arguments (`ps`), so
// `--api-key` is refused, as `agent-tray` refuses it.
import { parseArgs } from 'node:util'
import { AGENT_FAKE_KINDS, type AgentFakeKind } from './agent-fake'
import { startAgentFake } from './agent-fakes'
import { startReferenceService } from './server'

const KINDS = ['workser', ...AGENT_FAKE_KINDS]
const USAGE =
  `usage: AGENT_TRAY_SERVICE_API_KEY=KEY npm run reference-service -- [--kind ${KINDS.join('|')}] [--port N] [--host H] [--seed N] [--speed X] [--publishing-domain D] [--manual-clock] [--demo] [--no-extensions] [--no-etags] [--no-compression]\n` +
  'The API key is read from AGENT_TRAY_SERVICE_API_KEY only: a command line is visible to every local user.\n' +
  `--kind ${AGENT_FAKE_KINDS.join('|')} starts that service's fake (the key is the token it accepts); --publishing-domain, --no-extensions and --no-etags are Workser's only.`

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`)
  process.exit(2)
}

function number(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n)) fail(`--${name} must be a number, got "${value}".`)
  return n
}

async function main(): Promise<void> {
  let args
  try {
    args = parseArgs({
      options: {
        kind: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        speed: { type: 'string' },
        'publishing-domain': { type: 'string' },
        'manual-clock': { type: 'boolean' },
        demo: { type: 'boolean' },
        'no-extensions': { type: 'boolean' },
        'no-etags': { type: 'boolean' },
        'no-compression': { type: 'boolean' },
        help: { type: 'boolean' }
      },
      strict: true
    }).values
  } catch (e) {
    // Named without its value, which would otherwise be echoed back.
    if (process.argv.some((a) => /^--api-?key(=|$)/i.test(a)))
      fail('--api-key is not accepted: set AGENT_TRAY_SERVICE_API_KEY instead.')
    fail((e as Error).message)
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const apiKey = process.env.AGENT_TRAY_SERVICE_API_KEY
  if (!apiKey) fail('No API key: set AGENT_TRAY_SERVICE_API_KEY.')
  const port = number(args.port, 'port', 0)
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0–65535, got ${port}.`)
  const speed = number(args.speed, 'speed', 1)
  if (!(speed > 0)) fail('--speed must be positive.')
  const values = args
  const key = apiKey
  const kind = args.kind ?? 'workser'
  if (kind !== 'workser' && !(AGENT_FAKE_KINDS as readonly string[]).includes(kind))
    fail(`--kind must be ${new Intl.ListFormat('en', { type: 'disjunction' }).format(KINDS)}, got "${kind}".`)
  const service = kind === 'workser' ? await startWorkser() : await startAgent(kind as AgentFakeKind)
  process.stdout.write(`listening on ${service.url}\n`)
  if (service.url !== service.baseUrl) process.stdout.write(`base URL ${service.baseUrl}\n`)
  let closing = false
  const stop = (): void => {
    if (closing) return
    closing = true
    service.close().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)

  async function startAgent(kind: AgentFakeKind) {
    for (const only of ['publishing-domain', 'no-extensions', 'no-etags'] as const)
      if (values[only] !== undefined) fail(`--${only} applies to --kind workser only.`)
    const fake = await startAgentFake(kind, {
      apiKey: key,
      port,
      host: values.host,
      seed: number(values.seed, 'seed', 1),
      speed,
      manualClock: values['manual-clock'] ?? false,
      compression: !(values['no-compression'] ?? false)
    })
    if (values.demo) fake.control.seedDemo()
    return fake
  }

  async function startWorkser() {
    const service = await startReferenceService({
      apiKey: key,
      port,
      host: values.host,
      seed: number(values.seed, 'seed', 1),
      speed,
      publishingDomain: values['publishing-domain'],
      manualClock: values['manual-clock'] ?? false,
      extensions: !(values['no-extensions'] ?? false),
      etags: !(values['no-etags'] ?? false),
      compression: !(values['no-compression'] ?? false)
    })
    if (values.demo) service.control.seedDemo()
    return { url: service.url, baseUrl: service.url, close: () => service.close() }
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`The reference service could not start: ${e instanceof Error ? e.message : String(e)}\n`)
  process.exit(1)
})
