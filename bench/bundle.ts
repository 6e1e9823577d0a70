// The measured children run bundled JavaScript, as the app does (electron-vite bundles main,
// vite.cli.config.ts the command), not under tsx: tsx's loader (a hooks thread with its own V8
// isolate, and a compiler) would be charged to the child's memory and start-up, which the app
// never pays. Each worker entry is bundled with esbuild (the compiler tsx itself uses) into
// out/bench/, once per bench process; packages stay in node_modules, as the app leaves its
// dependencies (keytar is a native addon; conf, undici and zod are loaded from there).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { buildSync } from 'esbuild'
import { REPO_ROOT } from './service-process'

const OUT_DIR = path.join(REPO_ROOT, 'out/bench')
const bundled = new Map<string, string>()

/** The bundled file for a worker entry (`bench/*-worker.ts`), built on first use in this process. */
export function bundledWorker(entry: string): string {
  const known = bundled.get(entry)
  if (known) return known
  const outfile = path.join(OUT_DIR, `${path.basename(entry, path.extname(entry))}.mjs`)
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // For reading a BENCH_CPU_PROF profile against the sources; Node does not load it unless asked.
    sourcemap: 'linked',
    sourcesContent: false,
    outfile,
    write: false,
    logLevel: 'silent'
  })
  mkdirSync(OUT_DIR, { recursive: true })
  // Written aside and renamed into place: another bench process may be reading the same file.
  for (const file of result.outputFiles) {
    const aside = `${file.path}.${process.pid}.tmp`
    writeFileSync(aside, file.contents)
    renameSync(aside, file.path)
  }
  bundled.set(entry, outfile)
  return outfile
}
