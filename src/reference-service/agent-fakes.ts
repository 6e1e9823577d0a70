// The agent services' fakes by kind: what the command, the e2e host and the demo start.
import type { AgentFake, AgentFakeKind, AgentFakeOptions } from './agent-fake'
import { startCursorFake } from './cursor/fake'
import { startDevinFake } from './devin/fake'
import { startGithubFake } from './github/fake'
import { startJulesFake } from './jules/fake'

export function startAgentFake(kind: AgentFakeKind, options: AgentFakeOptions): Promise<AgentFake> {
  if (kind === 'devin') return startDevinFake(options)
  if (kind === 'cursor') return startCursorFake(options)
  return kind === 'github' ? startGithubFake(options) : startJulesFake(options)
}
