// Whatever a server sends, the parser answers with a result or a ServiceError, nothing else.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeJson, parseProject, parsePublishResult, parseSteps, parseStepsAndUsages, parseTasks } from './parse'
import { ServiceError } from './service-error'

const parsers: [string, (body: unknown) => unknown][] = [
  ['project', parseProject],
  ['tasks', (b) => parseTasks(b, () => {})],
  ['steps', (b) => parseSteps(b, () => {})],
  ['steps and usages', (b) => parseStepsAndUsages(b, () => {})],
  ['publish', parsePublishResult]
]

function onlyServiceErrors(run: () => unknown): void {
  try {
    run()
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e
    expect(e.kind).toBe('invalid_response')
  }
}

const field = fc.constantFrom(
  'id',
  'status',
  'type',
  'steps',
  'usages',
  'metadata',
  'usage_metadata',
  'final_price',
  'total_price',
  'message',
  'files_requirement',
  'input_tokens',
  'output_tokens',
  'total_tokens',
  'input_token_details',
  'price',
  'name',
  '__proto__',
  'constructor'
)

/** JSON shaped like the service's records, with any value anywhere. */
const recordish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.jsonValue({ maxDepth: 2 }),
    tie('record'),
    fc.array(tie('value'), { maxLength: 5 })
  ),
  record: fc.dictionary(field, tie('value'), { maxKeys: 8 })
}))

function nested(depth: number): unknown {
  let v: unknown = null
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { id: `x${i}`, steps: v, usage_metadata: v }
  return v
}

describe('parsers never throw anything but ServiceError', () => {
  for (const [name, parse] of parsers) {
    it(`${name}: arbitrary JSON values`, () => {
      fc.assert(
        fc.property(fc.jsonValue(), (v) => onlyServiceErrors(() => parse(v))),
        { numRuns: 300 }
      )
    })

    it(`${name}: record-shaped garbage, alone and in lists`, () => {
      fc.assert(
        fc.property(recordish.record, fc.array(recordish.value, { maxLength: 10 }), (r, list) => {
          onlyServiceErrors(() => parse(r))
          onlyServiceErrors(() => parse(list))
          onlyServiceErrors(() => parse({ steps: list, usages: list }))
        }),
        { numRuns: 150 }
      )
    })

    it(`${name}: deep nesting, nulls, huge arrays, non-JSON values`, () => {
      const odd = [undefined, null, Number.NaN, Infinity, Symbol('s'), () => 1, new Date(0), 10n, Object.create(null)]
      for (const v of [...odd, nested(5000), Array.from({ length: 50_000 }, () => null), odd]) {
        onlyServiceErrors(() => parse(v))
      }
    })
  }

  it('decodeJson: arbitrary strings and bytes', () => {
    const parseAll = (text: string) => {
      onlyServiceErrors(() => {
        const v = decodeJson(text, 'anything')
        for (const [, parse] of parsers) onlyServiceErrors(() => parse(v))
      })
    }
    fc.assert(fc.property(fc.string({ unit: 'binary' }), parseAll), { numRuns: 300 })
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => parseAll(Buffer.from(bytes).toString('utf8'))),
      { numRuns: 300 }
    )
    fc.assert(
      fc.property(fc.json(), fc.nat(), (json, cut) => parseAll(json.slice(0, cut % (json.length + 1)))),
      { numRuns: 300 }
    )
    parseAll('['.repeat(100_000))
    parseAll(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)
  })
})
