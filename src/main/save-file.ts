// Export CSV: written only where the user chose in the save dialog. Electron-only, so kept to translation.
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { app, type BrowserWindow, dialog } from 'electron'

export async function saveFileWithDialog(
  parent: BrowserWindow | null,
  suggestedName: string,
  contents: string
): Promise<string | null> {
  const options = {
    defaultPath: path.join(app.getPath('downloads'), path.basename(suggestedName)),
    filters: [{ name: 'CSV', extensions: ['csv'] }]
  }
  const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options)
  if (result.canceled || !result.filePath) return null
  await writeFile(result.filePath, contents, { mode: 0o600 })
  return result.filePath
}
