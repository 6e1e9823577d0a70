import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import { defineConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }

// The `agent-tray` command: one ESM file for plain Node, dependencies left in node_modules.
const external = [...builtinModules, ...builtinModules.map((m) => `node:${m}`), ...Object.keys(pkg.dependencies)]

export default defineConfig({
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'out/cli',
    emptyOutDir: true,
    minify: false,
    rollupOptions: {
      input: { main: resolve('src/cli/main.ts') },
      external: (id) => external.some((dep) => id === dep || id.startsWith(`${dep}/`)),
      output: { format: 'es', entryFileNames: '[name].js' }
    }
  }
})
