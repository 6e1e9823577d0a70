// `npm run build:linux|mac|win` packages the app with electron-builder through this step, which
// first checks where installed copies will look for updates, with the config exactly as
// electron-builder will read it: its own argument parser (`-c.publish.url=…`, `--config.publish.url …`,
// `-c.linux.publish.…`, `-c other.yml`) and its own loader (electron-builder.yml, package.json),
// and the repository the way it finds one. A build that would ship with no update feed (where
// electron-builder only warns), or with a generic feed over plain http (anyone on the path could
// serve it a "new version"), or with a GitHub feed told to use http, or with a publish token
// (written into every installed copy), fails here. `--check-only` stops after the check.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getConfig } from 'app-builder-lib/out/util/config/config.js'
import { getRepositoryInfo } from 'app-builder-lib/out/util/repositoryInfo.js'
import { configureBuildCommand, createYargs, normalizeOptions } from 'electron-builder/out/builder.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const PLATFORM_KEYS = { darwin: 'mac', linux: 'linux', win32: 'win' }

/** Why one publish entry gives installed copies no feed they can trust, or null. */
function entryProblem(entry, repository) {
  if (entry === null || entry === undefined || entry === false) {
    return 'no update feed: publish is turned off, so installed copies would never find an update'
  }
  const { provider, url, owner, repo, protocol, token } = typeof entry === 'string' ? { provider: entry } : entry
  // electron-builder copies the entry, token included, into every installed copy's app-update.yml.
  if (token !== undefined && token !== null && token !== '') {
    return 'publish.token is set: electron-builder would write it into app-update.yml in every installed copy, where anyone with the app can read it. Leave it out of the build; publishing reads GH_TOKEN from the environment'
  }
  if (provider === 'generic') {
    let parsed
    try {
      parsed = new URL(url)
    } catch {
      return `the generic update feed needs a URL (-c.publish.url=https://…), got ${JSON.stringify(url ?? '')}`
    }
    if (parsed.protocol !== 'https:')
      return `the generic update feed must use https, not ${parsed.protocol} (${parsed.href}): over plain http anyone on the way could serve a "new version"`
    return null
  }
  if (provider === 'github') {
    // electron-builder builds the feed's address as `${protocol || 'https'}://host`.
    if (protocol && protocol !== 'https')
      return `the GitHub update feed must use https, not ${protocol}: over plain http anyone on the way could serve a "new version"`
    // electron-builder's own fallbacks: `repo` as OWNER/REPO, else the repository it can find.
    if ((owner && repo) || (typeof repo === 'string' && repo.includes('/'))) return null
    if (repository?.user && repository?.project) return null
    return 'no update feed: this is not a GitHub clone and package.json has no repository, so installed copies would never find an update. Build with -c.publish.owner=OWNER -c.publish.repo=REPO, or -c.publish.provider=generic -c.publish.url=https://…'
  }
  return `unknown update provider ${JSON.stringify(provider)}: use github or generic (https)`
}

/** Why this build (electron-builder's arguments) would ship without a safe update feed, or null. */
export async function updateFeedProblem(args) {
  const options = normalizeOptions(configureBuildCommand(createYargs()).parseSync(args))
  const fromArgs = options.config
  const config = await getConfig(
    ROOT,
    typeof fromArgs === 'string' ? fromArgs : null,
    typeof fromArgs === 'object' ? fromArgs : null
  )
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const repository = await getRepositoryInfo(ROOT, pkg, null)
  // What electron-builder writes into each platform's app-update.yml: the platform's publish, else the top-level one.
  for (const platform of options.targets.keys()) {
    const key = PLATFORM_KEYS[platform.nodeName]
    const publish = config[key]?.publish !== undefined ? config[key].publish : config.publish
    const entries = Array.isArray(publish) ? publish : [publish]
    for (const entry of entries.length === 0 ? [null] : entries) {
      const problem = entryProblem(entry, repository)
      if (problem) return problem
    }
  }
  return null
}

const args = process.argv.slice(2)
const builderArgs = args.filter((a) => a !== '--check-only')
const problem = await updateFeedProblem(builderArgs)
if (problem) {
  process.stderr.write(`package: ${problem}\n`)
  process.exit(1)
}
if (args.includes('--check-only')) process.exit(0)
const result = spawnSync('electron-builder', builderArgs, { stdio: 'inherit', shell: process.platform === 'win32' })
process.exit(result.status ?? 1)
