/// <reference types="svelte" />
/// <reference types="vite/client" />
import type { Bridge } from '../shared/ipc'

declare global {
  interface Window {
    /** The preload's bridge: the window's only way to the app. */
    agentTray: Bridge
  }
}

export {}
