// Compression as real servers and proxies do it: when the request's Accept-Encoding allows,
// the body goes out as br or gzip (node:zlib), with Vary: Accept-Encoding.
import zlib from 'node:zlib'

export type Coding = 'br' | 'gzip'

/** Brotli at its dynamic-content quality (11, the default, is for static files: far too slow per request). */
const BROTLI_QUALITY = 4

/** Smaller bodies go as they are: the coding's own framing would outweigh the saving. */
export const MIN_COMPRESSED_BYTES = 256

/** br before gzip, or undefined; reads q-values (RFC 9110 §12.5.3): `q=0` refuses a coding, `*` is any not named. */
export function chooseCoding(acceptEncoding: string | undefined): Coding | undefined {
  if (!acceptEncoding) return undefined
  const q = new Map<string, number>()
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
    q.set(name.trim(), weight === undefined ? 1 : Number(weight))
  }
  const accepts = (coding: Coding): boolean => (q.get(coding) ?? q.get('*') ?? 0) > 0
  if (accepts('br')) return 'br'
  if (accepts('gzip')) return 'gzip'
  return undefined
}

export function compress(body: Buffer, coding: Coding): Buffer {
  return coding === 'br'
    ? zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length
        }
      })
    : zlib.gzipSync(body)
}
