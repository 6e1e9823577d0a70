// Damaged settings files, generated: real files written by the store, then cut anywhere and changed
// byte by byte (flips, insertions, deletions), or given a value of any JSON type at any depth.
// Opening never throws, the damaged bytes are kept aside exactly, and every entry the damage left
// whole is kept: a watched project, a connection, a stored key, a project's last seen state.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withoutCiphertexts } from './config-document'
import { settingsSchema } from './schema'
import { openSettings } from './store'
import { type Fixture, FIXTURE_NOW, type JsonPath, type LineInfo, linePaths, linesOf, writeFixture } from './test-files'

let root: string
let fixture: Fixture
let runs = 0

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-damage-'))
  fixture = await writeFixture(path.join(root, 'fixture'))
})
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

const now = () => FIXTURE_NOW

type Change =
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 4 })
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) })
)

const damageArb = fc
  .record({ cut: fc.option(fc.nat(), { nil: undefined }), changes: fc.array(changeArb, { maxLength: 3 }) })
  .filter((d) => d.cut !== undefined || d.changes.length > 0)

interface Damaged {
  bytes: Buffer
  /** Whether the damage changed anything of a line of the original, or of the line break before it. */
  touched(line: LineInfo): boolean
}

/**
 * Applies the damage, tracking each byte's place in the original, so a line counts as touched when
 * one of its bytes was changed, deleted or cut, or bytes were inserted into it.
 */
function applyDamage(original: Buffer, damage: { cut: number | undefined; changes: Change[] }): Damaged {
  const cutAt = damage.cut === undefined ? original.length : damage.cut % (original.length + 1)
  let cells: { byte: number; from: number | null }[] = [...original.subarray(0, cutAt)].map((byte, from) => ({
    byte,
    from
  }))
  const hit = new Set<number>()
  for (let i = cutAt; i < original.length; i++) hit.add(i)
  for (const change of damage.changes) {
    const at = cells.length === 0 ? 0 : change.at % cells.length
    if (change.kind === 'flip' && cells[at]) {
      cells[at] = { byte: cells[at].byte ^ change.xor, from: cells[at].from }
      if (cells[at].from !== null) hit.add(cells[at].from)
    } else if (change.kind === 'insert') {
      cells = [...cells.slice(0, at), ...[...change.bytes].map((byte) => ({ byte, from: null })), ...cells.slice(at)]
    } else if (change.kind === 'delete') {
      for (const cell of cells.slice(at, at + change.length)) if (cell.from !== null) hit.add(cell.from)
      cells = [...cells.slice(0, at), ...cells.slice(at + change.length)]
    }
  }
  // An inserted byte lands in the line of the original byte before it, or after a line break in the next line.
  cells.forEach((cell, i) => {
    if (cell.from !== null) return
    const before = cells.slice(0, i).findLast((c) => c.from !== null)
    const after = cells.slice(i).find((c) => c.from !== null)
    if (before && original[before.from!] !== 0x0a) hit.add(before.from!)
    else hit.add(after?.from ?? original.length)
  })
  return {
    bytes: Buffer.from(cells.map((c) => c.byte)),
    touched: (line) => {
      for (let i = line.start - 1; i <= line.end; i++) if (hit.has(i)) return true
      return false
    }
  }
}

function newDir(): string {
  const dir = path.join(root, `run-${runs++}`)
  fs.mkdirSync(dir)
  return dir
}

const asidesOf = (dir: string, file: string) =>
  fs.readdirSync(dir).filter((name) => name.startsWith(`${file}.`) && !name.endsWith('.lock'))

/** Either the file was left as it was, or its bytes were kept aside exactly and the user told once, naming the copy. */
async function expectKeptAsideOrUntouched(dir: string, file: string, bytes: Buffer, notices: string[]): Promise<void> {
  const asides = asidesOf(dir, file)
  const about = notices.filter(
    (n) => n.startsWith(path.join(dir, file) + ' ') || n.includes(`of ${path.join(dir, file)} `)
  )
  if (asides.length === 0) {
    expect(fs.readFileSync(path.join(dir, file))).toEqual(bytes)
    expect(about).toEqual([])
    return
  }
  expect(asides).toHaveLength(1)
  expect(asides[0]).toMatch(new RegExp(`^${file.replace('.', '\\.')}\\.(corrupt|newer)-`))
  // As it was, but for key ciphertexts, which are never kept aside.
  expect(fs.readFileSync(path.join(dir, asides[0]!))).toEqual(withoutCiphertexts(bytes))
  expect(about).toHaveLength(1)
  expect(about[0]).toContain(path.join(dir, asides[0]!))
}

describe('config.json cut and changed byte by byte', () => {
  it('opens, keeps the damaged bytes aside, and keeps every watched project, connection and key left whole', async () => {
    const lines = linePaths(fixture.config)
    await fc.assert(
      fc.asyncProperty(damageArb, async (damage) => {
        const dir = newDir()
        const { bytes, touched } = applyDamage(fixture.config, damage)
        fs.writeFileSync(path.join(dir, 'config.json'), bytes)
        fs.writeFileSync(path.join(dir, 'state.json'), fixture.state)
        const whole = (at: JsonPath) => linesOf(lines, at).every((line) => !touched(line))

        const store = await openSettings({ dir, now })
        const notices = store.takeNotices()
        await expectKeptAsideOrUntouched(dir, 'config.json', bytes, notices)
        const settings = store.read()
        expect(settingsSchema.safeParse(settings).success).toBe(true)
        // A change that turns one project's id into another's leaves two entries claiming one project:
        // the first is kept (a project is watched once), and nothing tells which of the two was damaged.
        const claims = (projectId: string) => bytes.toString('latin1').split(`"projectId": "${projectId}"`).length - 1
        for (const [connectionId, projects] of Object.entries(fixture.settings.watched)) {
          projects.forEach((project, i) => {
            if (!whole(['watched', connectionId, i])) return
            const kept = settings.watched[connectionId] ?? []
            if (claims(project.projectId) > 1) expect(kept.map((p) => p.projectId)).toContain(project.projectId)
            else expect(kept).toContainEqual(project)
          })
        }
        fixture.settings.connections.forEach((connection, i) => {
          if (whole(['connections', i])) expect(settings.connections).toContainEqual(connection)
        })
        for (const [id, ciphertext] of Object.entries(fixture.safeStorageKeys)) {
          if (whole(['safeStorageKeys', id])) expect(await store.ciphertexts.get(id)).toBe(ciphertext)
        }
        // Repaired once: opening again is quiet and reads the same.
        const again = await openSettings({ dir, now })
        expect(again.takeNotices()).toEqual([])
        expect(again.read()).toEqual(settings)
        fs.rmSync(dir, { recursive: true, force: true })
      }),
      { numRuns: 200 }
    )
  }, 120_000)
})

describe('state.json cut and changed byte by byte', () => {
  it("opens, keeps the damaged bytes aside, keeps every project's last seen state left whole, and none with lines lost", async () => {
    const lines = linePaths(fixture.state)
    await fc.assert(
      fc.asyncProperty(damageArb, async (damage) => {
        const dir = newDir()
        const { bytes, touched } = applyDamage(fixture.state, damage)
        fs.writeFileSync(path.join(dir, 'config.json'), fixture.config)
        fs.writeFileSync(path.join(dir, 'state.json'), bytes)
        const whole = (at: JsonPath) => linesOf(lines, at).every((line) => !touched(line))

        const store = await openSettings({ dir, now })
        const notices = store.takeNotices()
        await expectKeptAsideOrUntouched(dir, 'state.json', bytes, notices)
        expect(store.read()).toEqual(fixture.settings)
        const lastSeen = store.readLastSeen()
        for (const [connectionId, snapshots] of Object.entries(fixture.lastSeen)) {
          for (const [projectId, snapshot] of Object.entries(snapshots)) {
            if (whole(['lastSeen', connectionId, projectId]))
              expect(lastSeen[connectionId]?.[projectId]).toEqual(snapshot)
          }
        }
        // Never a snapshot that damage may have left incomplete (a task missing from it would be announced
        // again): one kept is the original, or had bytes of its own changed into other valid values,
        // which no reader can tell (a key changed into its neighbour's costs that one value).
        for (const [connectionId, snapshots] of Object.entries(lastSeen)) {
          for (const [projectId, snapshot] of Object.entries(snapshots)) {
            const original = fixture.lastSeen[connectionId]?.[projectId]
            // A key changed into another valid key names no watched project: nothing reads it.
            if (original === undefined || JSON.stringify(snapshot) === JSON.stringify(original)) continue
            const changedLines = lines.filter(
              (line) =>
                line.path[0] === 'lastSeen' &&
                line.path[1] === connectionId &&
                line.path[2] === projectId &&
                touched(line)
            )
            expect(changedLines.length).toBeGreaterThan(0)
            expect(leaves(original) - leaves(snapshot)).toBeLessThanOrEqual(changedLines.length)
          }
        }
        if (whole(['budgetsNotified', 'conn-work', 'proj-conn-work-0'])) {
          expect(store.readBudgetsNotified()['conn-work']?.['proj-conn-work-0']).toBe(0.5)
        }
        const again = await openSettings({ dir, now })
        expect(again.takeNotices()).toEqual([])
        expect(again.readLastSeen()).toEqual(lastSeen)
        fs.rmSync(dir, { recursive: true, force: true })
      }),
      { numRuns: 150 }
    )
  }, 120_000)
})

/** How many strings, numbers, booleans and nulls a JSON value holds. */
function leaves(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1
  return Object.values(value).reduce((sum: number, v) => sum + leaves(v), 0)
}

/** Every path in a JSON value, the value itself ([]) included. */
function pathsIn(value: unknown, at: JsonPath = []): JsonPath[] {
  const here = [at]
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => pathsIn(v, [...at, i]))]
  if (typeof value === 'object' && value !== null)
    return [...here, ...Object.entries(value).flatMap(([k, v]) => pathsIn(v, [...at, k]))]
  return here
}

function replaceAt(value: unknown, at: JsonPath, replacement: unknown): unknown {
  if (at.length === 0) return replacement
  const [head, ...rest] = at
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>
  copy[head!] = replaceAt(copy[head!], rest, replacement)
  return copy
}

const overlaps = (a: JsonPath, b: JsonPath) =>
  a.slice(0, b.length).every((s, i) => s === b[i]) || b.slice(0, a.length).every((s, i) => s === a[i])

describe('config.json with a value of any type at any depth', () => {
  it('opens, keeps the file aside, repairs it, and keeps every watched project and connection not replaced', async () => {
    const original = JSON.parse(fixture.config.toString('utf8')) as unknown
    const paths = pathsIn(original)
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.jsonValue(), async (at, replacement) => {
        const dir = newDir()
        const bytes = Buffer.from(JSON.stringify(replaceAt(original, at, replacement), null, '\t'))
        fs.writeFileSync(path.join(dir, 'config.json'), bytes)
        const store = await openSettings({ dir, now })
        await expectKeptAsideOrUntouched(dir, 'config.json', bytes, store.takeNotices())
        const settings = store.read()
        expect(
          settingsSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'))).success
        ).toBe(true)
        for (const [connectionId, projects] of Object.entries(fixture.settings.watched)) {
          projects.forEach((project, i) => {
            if (!overlaps(at, ['watched', connectionId, i]))
              expect(settings.watched[connectionId] ?? []).toContainEqual(project)
          })
        }
        fixture.settings.connections.forEach((connection, i) => {
          if (!overlaps(at, ['connections', i])) expect(settings.connections).toContainEqual(connection)
        })
        fs.rmSync(dir, { recursive: true, force: true })
      }),
      { numRuns: 200 }
    )
  }, 120_000)
})
