// Written atomically like state.json (`atomically`). Holds events and target ids, never a target's URL or token.
import fs from 'node:fs'
import { writeFileSync } from 'atomically'
import { z } from 'zod'
import type { ForwardEvent } from './event'

export const OUTBOX_FILE = 'forward-outbox.json'
/** Per target, how many delivered event ids are remembered, so a repeat is never sent again. */
export const DELIVERED_MEMORY = 2000

export interface OutboxEntry {
  targetId: string
  event: ForwardEvent
  enqueuedAt: number
  attempts: number
  nextAt: number
  lastError?: string
}

export interface TargetStatus {
  lastDeliveredAt?: number
  lastError?: string
  lastErrorAt?: number
  /** Events given up since its last delivery (one notice for all of them). */
  givenUp?: number
}

export interface OutboxDocument {
  version: 1
  pending: OutboxEntry[]
  delivered: Record<string, string[]>
  status: Record<string, TargetStatus>
}

export const emptyOutbox = (): OutboxDocument => ({ version: 1, pending: [], delivered: {}, status: {} })

const documentSchema = z.object({
  version: z.literal(1),
  pending: z.array(
    z.object({
      targetId: z.string(),
      event: z.looseObject({ id: z.string(), kind: z.string() }),
      enqueuedAt: z.number(),
      attempts: z.number(),
      nextAt: z.number(),
      lastError: z.string().optional()
    })
  ),
  delivered: z.record(z.string(), z.array(z.string())),
  status: z.record(
    z.string(),
    z.object({
      lastDeliveredAt: z.number().optional(),
      lastError: z.string().optional(),
      lastErrorAt: z.number().optional(),
      givenUp: z.number().optional()
    })
  )
})

export interface OutboxStorage {
  read(): OutboxDocument
  write(doc: OutboxDocument): void
}

/** A damaged file is kept aside (…-damaged-<time>) and the outbox starts empty; never a crash. */
export function fileOutboxStorage(file: string, now: () => number = Date.now): OutboxStorage {
  return {
    read() {
      let raw: string
      try {
        raw = fs.readFileSync(file, 'utf8')
      } catch {
        return emptyOutbox()
      }
      try {
        const parsed = documentSchema.parse(JSON.parse(raw))
        return parsed as unknown as OutboxDocument
      } catch {
        try {
          fs.renameSync(file, `${file}-damaged-${now()}`)
        } catch {
          // Nothing to keep aside.
        }
        return emptyOutbox()
      }
    },
    write(doc) {
      writeFileSync(file, JSON.stringify(doc), { mode: 0o600 })
    }
  }
}

export function memoryOutboxStorage(initial: OutboxDocument = emptyOutbox()): OutboxStorage & { doc: OutboxDocument } {
  const holder = {
    doc: structuredClone(initial),
    read: () => structuredClone(holder.doc),
    write: (doc: OutboxDocument) => {
      holder.doc = structuredClone(doc)
    }
  }
  return holder
}
