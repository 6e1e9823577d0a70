import { vitePreprocess } from '@sveltejs/vite-plugin-svelte'

/** Svelte for the window: TypeScript in components; CSS goes to a file so the CSP needs no 'unsafe-inline'. */
export default {
  preprocess: vitePreprocess(),
  compilerOptions: { runes: true }
}
