#!/usr/bin/env node
// Launches the built command (npm run build:cli makes out/cli/main.js).
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

const built = fileURLToPath(new URL('../out/cli/main.js', import.meta.url))
if (!existsSync(built)) {
  process.stderr.write('agent-tray: the command is not built yet: run `npm run build:cli` first.\n')
  process.exit(11)
}
const { main } = await import(pathToFileURL(built).href)
process.exitCode = await main(process.argv.slice(2))
