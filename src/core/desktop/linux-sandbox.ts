// Ubuntu 24.04+ AppArmor can make Electron die at launch before our code runs, so scripts check first. Only a warning:
// a profile allowing Electron's namespaces is root's to read, so the restriction alone proves nothing.

export interface LinuxSandboxFacts {
  platform: string
  /** /proc/sys/kernel/apparmor_restrict_unprivileged_userns, or null where the file is absent. */
  restrictUserns: string | null
  /** chrome-sandbox beside the Electron binary: owner and mode, or null where it is absent. */
  chromeSandbox: { uid: number; mode: number } | null
  chromeSandboxPath: string
}

/** What may stop Electron's sandbox from starting here, with what to do; null when nothing does. */
export function linuxSandboxProblem(facts: LinuxSandboxFacts): string | null {
  if (facts.platform !== 'linux') return null
  if (facts.restrictUserns?.trim() !== '1') return null
  const helper = facts.chromeSandbox
  // A setuid-root helper needs no user namespace: the sandbox starts.
  if (helper && helper.uid === 0 && (helper.mode & 0o4000) !== 0) return null
  return [
    'AppArmor restricts unprivileged user namespaces here (Ubuntu 24.04 and later): unless an AppArmor profile allows them for Electron, it cannot start its sandbox and stops with a line about the SUID sandbox.',
    'Then either give Electron an AppArmor profile that allows them (see the README, "Linux notes"), or make its sandbox helper setuid root:',
    `  sudo chown root:root ${facts.chromeSandboxPath} && sudo chmod 4755 ${facts.chromeSandboxPath}`,
    'An installed .deb sets the helper up itself; the AppImage needs the profile.'
  ].join('\n')
}
