// Which service an account is of (registry.ts: Workser when none is named), what each offers in words, and the one
// refusal (exit 10) for what a service does not offer. No service is named here: the descriptors say it.
import { isAgentService, serviceDescriptor, SERVICES, unknownServiceProblem } from '../core/providers/registry'
import type { ProviderCapabilities, ProviderDescriptor } from '../shared/provider'
import type { Connection } from '../shared/settings'
import { CliError } from './cli-error'
import { EXIT } from './exit-codes'

/** The service an account is of; a connection without one is of the first service (Workser). */
export function descriptorOf(connection: Connection): ProviderDescriptor {
  return serviceDescriptor(connection.service) ?? SERVICES[0]!
}

export function isAgentAccount(connection: Connection): boolean {
  return isAgentService(connection.service)
}

/** The kinds `login --service` takes, from the registry. */
export const SERVICE_KINDS: readonly string[] = SERVICES.map((s) => s.kind)

const CAPABILITY_WORDS: Record<keyof ProviderCapabilities, string> = {
  steps: 'steps',
  cost: 'cost',
  publish: 'publishing',
  projects: 'projects',
  approve: 'approving a plan',
  reply: 'replying',
  startTask: 'starting a task'
}

/** "steps, cost and approving a plan": what a service offers, in the order of its capabilities. */
export function offeredWords(descriptor: ProviderDescriptor): string {
  const words = (Object.keys(CAPABILITY_WORDS) as (keyof ProviderCapabilities)[])
    .filter((c) => descriptor.capabilities[c])
    .map((c) => CAPABILITY_WORDS[c])
  if (words.length === 0) return 'only its task list'
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}

/** Exit 10: `what` means nothing for this account's service; says what the service offers instead. */
export function notOffered(connection: Connection, what: string): CliError {
  const d = descriptorOf(connection)
  return new CliError(
    EXIT.refused,
    `${d.displayName} does not offer ${what} (account "${connection.name}"). Agent Tray offers there: ${offeredWords(d)}.`
  )
}

/** Exit 10 for an account of a service this version does not know: it is never taken for another service's, so its key
 *  goes nowhere. */
export function requireKnownService(connection: Connection): void {
  const problem = unknownServiceProblem(connection.service)
  if (problem !== null) throw new CliError(EXIT.refused, `Account "${connection.name}": ${problem}`)
}

/** Commands for Workser's projects refuse an agent account (exit 10) instead of sending its key elsewhere. */
export function requireProjectsAccount(connection: Connection, command: string | undefined): void {
  requireKnownService(connection)
  if (!isAgentAccount(connection)) return
  const named = command ? `\`agent-tray ${command}\`` : 'this command'
  throw notOffered(connection, `${named} (its tasks are not in projects)`)
}
