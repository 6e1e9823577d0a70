import { describe, expect, it } from 'vitest'
import { type LinuxSandboxFacts, linuxSandboxProblem } from './linux-sandbox'

const base: LinuxSandboxFacts = {
  platform: 'linux',
  restrictUserns: '1\n',
  chromeSandbox: { uid: 1000, mode: 0o100755 },
  chromeSandboxPath: '/p/chrome-sandbox'
}

describe('linuxSandboxProblem', () => {
  it('names the AppArmor restriction and both ways out when the helper is not setuid root', () => {
    const problem = linuxSandboxProblem(base)
    expect(problem).toMatch(/AppArmor restricts unprivileged user namespaces/)
    expect(problem).toContain('sudo chown root:root /p/chrome-sandbox && sudo chmod 4755 /p/chrome-sandbox')
  })

  it('says the sandbox may still start: a profile that allows it cannot be seen without root', () => {
    expect(linuxSandboxProblem(base)).toMatch(/unless an AppArmor profile allows them for Electron/)
  })

  it('is no problem with a setuid-root helper, without the restriction, or off Linux', () => {
    expect(linuxSandboxProblem({ ...base, chromeSandbox: { uid: 0, mode: 0o104755 } })).toBeNull()
    expect(linuxSandboxProblem({ ...base, chromeSandbox: { uid: 0, mode: 0o100755 } })).not.toBeNull()
    expect(linuxSandboxProblem({ ...base, chromeSandbox: { uid: 1000, mode: 0o104755 } })).not.toBeNull()
    expect(linuxSandboxProblem({ ...base, restrictUserns: '0\n' })).toBeNull()
    expect(linuxSandboxProblem({ ...base, restrictUserns: null })).toBeNull()
    expect(linuxSandboxProblem({ ...base, platform: 'darwin' })).toBeNull()
  })
})
