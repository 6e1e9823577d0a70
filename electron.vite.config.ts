import { resolve } from 'node:path'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { devContentSecurityPolicy, META_CONTENT_SECURITY_POLICY } from './src/shared/csp'

// index.html gets its CSP <meta> from src/shared/csp.ts, the one place the policy is written.
// The dev server gets the relaxed dev policy (Vite injects <style> tags and a hot-reload socket).
function contentSecurityPolicy(): Plugin {
  let policy = META_CONTENT_SECURITY_POLICY
  return {
    name: 'agent-tray:csp',
    configureServer(server) {
      server.httpServer?.once('listening', () => {
        const url = server.resolvedUrls?.local[0]
        if (url) policy = devContentSecurityPolicy(url)
      })
    },
    transformIndexHtml: {
      order: 'pre',
      handler: () => [
        { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: policy }, injectTo: 'head-prepend' }
      ]
    }
  }
}

export default defineConfig({
  main: {
    build: {
      rollupOptions: { input: { index: resolve('src/main/index.ts') } }
    }
  },
  preload: {
    build: {
      // A sandboxed preload can only require('electron'): one self-contained CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [contentSecurityPolicy(), svelte({ configFile: resolve('svelte.config.js') })],
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } }
    }
  }
})
