// The outbox's file: read back as written, a missing one empty, one of another shape kept aside
// (never a crash), written private; the memory storage tests use keeps no reference to the caller's.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { emptyOutbox, fileOutboxStorage, memoryOutboxStorage, OUTBOX_FILE, type OutboxDocument } from './outbox-file'
import { forwardEvent } from './test-events'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})
function file(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-file-'))
  dirs.push(dir)
  return path.join(dir, OUTBOX_FILE)
}

const DOC: OutboxDocument = {
  version: 1,
  pending: [{ targetId: 'w', event: forwardEvent('t1'), enqueuedAt: 1, attempts: 2, nextAt: 3, lastError: 'HTTP 500' }],
  delivered: { w: ['a', 'b'] },
  status: { w: { lastDeliveredAt: 1, lastError: 'x', lastErrorAt: 2, givenUp: 3 } }
}

describe('fileOutboxStorage', () => {
  it('reads back what it wrote, the file private to the user', () => {
    const f = file()
    const storage = fileOutboxStorage(f)
    expect(storage.read()).toEqual(emptyOutbox())
    storage.write(DOC)
    expect(fs.statSync(f).mode & 0o777).toBe(0o600)
    expect(storage.read()).toEqual(DOC)
    expect(fs.readdirSync(path.dirname(f))).toEqual([OUTBOX_FILE])
  })

  it('a document of another shape is kept aside, dated, and the outbox starts empty', () => {
    const bad = [
      { ...DOC, version: 2 },
      { ...DOC, pending: [{ ...DOC.pending[0], attempts: '2' }] },
      { ...DOC, delivered: { w: [1] } },
      { ...DOC, status: { w: { givenUp: 'x' } } },
      { ...DOC, pending: [{ ...DOC.pending[0], event: { id: 'x' } }] }
    ]
    for (const [i, doc] of bad.entries()) {
      const f = file()
      fs.writeFileSync(f, JSON.stringify(doc))
      expect(fileOutboxStorage(f, () => 40 + i).read(), JSON.stringify(doc)).toEqual(emptyOutbox())
      expect(fs.readdirSync(path.dirname(f))).toEqual([`${OUTBOX_FILE}-damaged-${40 + i}`])
    }
  })

  it('one that cannot be read as a file is empty, and one that cannot be moved aside too', () => {
    const f = file()
    fs.mkdirSync(f)
    expect(fileOutboxStorage(f).read()).toEqual(emptyOutbox())
    expect(fs.statSync(f).isDirectory()).toBe(true)
  })

  it('the empty document', () => {
    expect(emptyOutbox()).toEqual({ version: 1, pending: [], delivered: {}, status: {} })
    expect(emptyOutbox()).not.toBe(emptyOutbox())
  })
})

describe('memoryOutboxStorage', () => {
  it('copies in and out', () => {
    const storage = memoryOutboxStorage(DOC)
    const read = storage.read()
    expect(read).toEqual(DOC)
    read.pending.length = 0
    expect(storage.read().pending).toHaveLength(1)
    const doc = emptyOutbox()
    storage.write(doc)
    doc.pending.push(DOC.pending[0]!)
    expect(storage.doc.pending).toEqual([])
    expect(memoryOutboxStorage().read()).toEqual(emptyOutbox())
  })
})
