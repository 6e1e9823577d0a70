// The preload: exposes the typed bridge as window.agentTray and nothing else.
import { contextBridge, ipcRenderer } from 'electron'
import { createBridge } from './bridge'

contextBridge.exposeInMainWorld('agentTray', createBridge(ipcRenderer))
