import { Transform, type TransformCallback, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib'
import type { Dispatcher } from 'undici'
import { truncate } from './_host-guard.js'
import { FetchError, isFetchError } from './errors.js'

/** Counts bytes flowing through and fails the pipeline as soon as the cap is passed. */
class ByteCap extends Transform {
  bytes = 0
  constructor(
    private readonly maxBytes: number,
    private readonly onExceeded: () => Error,
  ) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length
    if (this.bytes > this.maxBytes) callback(this.onExceeded())
    else callback(null, chunk)
  }
}

/**
 * `Content-Encoding: deflate` is meant to be zlib-wrapped, but some servers send raw deflate; decide from the
 * first two bytes (a zlib header has CM=8 and a checksum divisible by 31), as browsers do.
 */
class AutoInflate extends Transform {
  private inner: Transform | undefined

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.inner) {
      const b0 = chunk[0] ?? 0
      const b1 = chunk[1] ?? 0
      const zlibWrapped = (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0
      const inner = zlibWrapped ? createInflate() : createInflateRaw()
      inner.on('data', (data: Buffer) => this.push(data))
      inner.on('error', (error) => this.destroy(error))
      this.inner = inner
    }
    this.inner.write(chunk, () => callback())
  }

  override _flush(callback: TransformCallback): void {
    if (!this.inner) {
      callback()
      return
    }
    this.inner.once('end', () => callback())
    this.inner.end()
  }

  override _destroy(error: Error | null, callback: (error: Error | null) => void): void {
    this.inner?.destroy()
    callback(error)
  }
}

function decodersFor(contentEncoding: string | undefined, requested: string): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
  // Codings are listed in the order they were applied, so undo them last-first.
  return codings.reverse().map((coding) => {
    if (coding === 'gzip' || coding === 'x-gzip') return createGunzip()
    if (coding === 'deflate') return new AutoInflate()
    if (coding === 'br') return createBrotliDecompress()
    throw new FetchError(`unsupported content-encoding ${truncate(coding, 40)}`, {
      kind: 'unsupported_type',
      url: requested,
    })
  })
}

export function closeQuietly(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {})
  body.destroy()
}

/**
 * Reads a response body through a byte cap on the wire, the decoders its `content-encoding` names, and a second cap
 * after decompression (a small gzip can expand to gigabytes). A body that cannot be decoded is a `network` error.
 */
export async function readCappedBody(
  res: Pick<Dispatcher.ResponseData, 'body' | 'statusCode'>,
  context: {
    encoding: string | undefined
    describeUrl: string
    requested: string
    maxBytes: number
    signal: AbortSignal
  },
): Promise<{ body: Buffer; bytes: number }> {
  const { encoding, describeUrl, requested, maxBytes, signal } = context
  let decoders: Transform[]
  try {
    decoders = decodersFor(encoding, requested)
  } catch (error) {
    closeQuietly(res.body)
    throw error
  }
  const tooLarge = (stage: string) => () =>
    new FetchError(`refused ${describeUrl}: body is over the ${maxBytes}-byte limit ${stage}`, {
      kind: 'too_large',
      url: requested,
      status: res.statusCode,
    })
  const chunks: Buffer[] = []
  let bytes = 0
  try {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk)
        bytes += chunk.length
        callback()
      },
    })
    const stages: (NodeJS.ReadableStream | NodeJS.WritableStream | NodeJS.ReadWriteStream)[] = [
      res.body,
      new ByteCap(maxBytes, tooLarge('on the wire')),
      ...decoders,
      new ByteCap(maxBytes, tooLarge('after decompression')),
      sink,
    ]
    await pipeline(stages, { signal })
  } catch (error) {
    if (isFetchError(error) || signal.aborted) throw error
    const code = (error as { code?: string }).code ?? ''
    if (
      decoders.length > 0 &&
      (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code === 'ERR__ERROR_FORMAT_PADDING_1')
    ) {
      throw new FetchError(`could not decode the ${encoding} body of ${describeUrl}`, {
        kind: 'network',
        url: requested,
        status: res.statusCode,
        retryable: false,
        cause: error,
      })
    }
    throw error
  }
  return { body: Buffer.concat(chunks, bytes), bytes }
}
