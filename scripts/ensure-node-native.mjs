// keytar is a native addon: `npm run native:electron` rebuilds it for Electron's ABI, which
// plain Node (the command line, the tests) cannot load. Rebuild it for Node only when needed.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
try {
  require('keytar')
} catch (error) {
  if (!/NODE_MODULE_VERSION|was compiled against/.test(String(error))) throw error
  console.log('keytar was built for Electron; rebuilding it for Node...')
  execFileSync('npm', ['rebuild', 'keytar'], { stdio: 'inherit' })
}
