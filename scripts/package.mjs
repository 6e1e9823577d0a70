// `npm run build:linux|mac|win` packages the app with electron-builder through this step, which
// first checks where installed copies will look for updates, with the config as electron-builder
// reads it (electron-builder.yml, then the `-c.publish.*` arguments): a build that would ship with
// no update feed, or with a generic feed over plain http (anyone on the path could serve it a
// "new version"), fails here instead of warning. `--check-only` stops after the check.
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import yaml from 'js-yaml'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The publish options: electron-builder.yml's, with `-c.publish.KEY=VALUE` arguments over them. */
function publishOptions(args) {
  const config = yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8'))
  const publish = { ...(Array.isArray(config.publish) ? config.publish[0] : config.publish) }
  for (const arg of args) {
    const m = /^-c\.publish\.([A-Za-z]+)=(.*)$/.exec(arg)
    if (m) publish[m[1]] = m[2]
  }
  return publish
}

/** Where a GitHub feed's owner and repo come from when not given: package.json, else the clone's origin. */
function gitHubRepository() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const declared = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url
  let origin = ''
  try {
    origin = execFileSync('git', ['remote', 'get-url', 'origin'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    // Not a clone, or no origin.
  }
  return [declared, origin].find((u) => typeof u === 'string' && /github\.com[:/][^/]+\/[^/]+|^github:[^/]+\/[^/]+/.test(u)) ?? null
}

/** Why this build would ship without a safe update feed, or null. */
export function updateFeedProblem(args) {
  const publish = publishOptions(args)
  if (publish.provider === 'generic') {
    let url
    try {
      url = new URL(publish.url)
    } catch {
      return `the generic update feed needs a URL (-c.publish.url=https://…), got ${JSON.stringify(publish.url ?? '')}`
    }
    if (url.protocol !== 'https:') return `the generic update feed must use https, not ${url.protocol} (${url.href}): over plain http anyone on the way could serve a "new version"`
    return null
  }
  if (publish.provider === 'github') {
    if (publish.owner && publish.repo) return null
    if (gitHubRepository()) return null
    return 'no update feed: this is not a GitHub clone and package.json has no repository, so installed copies would never find an update. Build with -c.publish.owner=OWNER -c.publish.repo=REPO, or -c.publish.provider=generic -c.publish.url=https://…'
  }
  return `unknown update provider ${JSON.stringify(publish.provider)}: use github or generic (https)`
}

const args = process.argv.slice(2)
const problem = updateFeedProblem(args)
if (problem) {
  process.stderr.write(`package: ${problem}\n`)
  process.exit(1)
}
if (args.includes('--check-only')) process.exit(0)
const result = spawnSync('electron-builder', args, { stdio: 'inherit', shell: process.platform === 'win32' })
process.exit(result.status ?? 1)
