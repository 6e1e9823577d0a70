import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { addConnection } from './edit'
import { openSettings } from './store'

const writer = fileURLToPath(new URL('./test-writer.ts', import.meta.url))
let dir: string

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

function runWriter(prefix: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, prefix, '20'], {
      stdio: ['ignore', 'ignore', 'pipe']
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`writer ${prefix} exited ${code}: ${stderr}`))
    )
  })
}

it('two processes each watching 20 projects at once lose none of the 40', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-concurrent-'))
  const store = await openSettings({ dir })
  await store.update((draft) => {
    addConnection(draft, { baseUrl: 'https://api.example.com' }, 'c1')
  })
  await Promise.all([runWriter('a'), runWriter('b')])
  const ids = store.read().watched.c1?.map((p) => p.projectId) ?? []
  expect(ids).toHaveLength(40)
  for (const prefix of ['a', 'b']) {
    for (let n = 0; n < 20; n++) expect(ids).toContain(`${prefix}-${n}`)
  }
  // No lock left behind.
  expect(fs.readdirSync(dir).sort()).toEqual(['config.json', 'config.last-good.json'])
}, 60_000)
